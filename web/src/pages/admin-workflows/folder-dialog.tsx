import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useState } from 'react';

import type { Folder } from '../../../../shared';
import { MESSAGES } from '../../../../shared/messages';
import { useSaveFolder } from '../../api/directory';
import { useSubmissionKey } from '../../api/submission-key';
import { useNotifications } from '../../notifications/notifications-context';
import { ADMIN_WORKFLOWS_TEXT } from './strings';

const TEXT = ADMIN_WORKFLOWS_TEXT.folderDialog;

export interface FolderDialogProps {
  /** The folder to edit; absent to create one. */
  readonly folder?: Folder;
  readonly onSaved: (folder: Folder) => void;
  readonly onDismiss: () => void;
}

/** Create or edit a folder: a name that is blank once trimmed is refused under its field. */
export function FolderDialog({ folder, onSaved, onDismiss }: FolderDialogProps) {
  const notifications = useNotifications();
  const saveFolder = useSaveFolder();
  const [name, setName] = useState(folder?.name ?? '');
  const [description, setDescription] = useState(folder?.description ?? '');
  const [saving, setSaving] = useState(false);
  const [nameError, setNameError] = useState<string>();
  const submissionKey = useSubmissionKey();

  const submit = async () => {
    if (!name.trim()) {
      setNameError(MESSAGES.validation.folderName);
      return;
    }
    setNameError(undefined);
    setSaving(true);
    const body = { name: name.trim(), description: description.trim() || null };
    try {
      const saved = await saveFolder.mutateAsync({
        ...(folder ? { id: folder.id } : { idempotencyKey: submissionKey(body) }),
        fields: body,
      });
      notifications.success(folder ? TEXT.updated : TEXT.created);
      onSaved(saved);
    } catch (error) {
      notifications.error(
        error instanceof Error && error.message ? `${TEXT.saveFailed} : ${error.message}` : TEXT.saveFailed,
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      visible
      header={folder ? TEXT.editTitle : TEXT.createTitle}
      onDismiss={() => !saving && onDismiss()}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Form
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button formAction="none" variant="link" disabled={saving} onClick={onDismiss}>
                {TEXT.cancel}
              </Button>
              <Button variant="primary" loading={saving}>
                {folder ? TEXT.save : TEXT.create}
              </Button>
            </SpaceBetween>
          }
        >
          <SpaceBetween size="m">
            <FormField label={TEXT.name} errorText={nameError}>
              <Input value={name} onChange={({ detail }) => setName(detail.value)} />
            </FormField>
            <FormField label={TEXT.description}>
              <Textarea
                value={description}
                rows={2}
                onChange={({ detail }) => setDescription(detail.value)}
              />
            </FormField>
          </SpaceBetween>
        </Form>
      </form>
    </Modal>
  );
}
