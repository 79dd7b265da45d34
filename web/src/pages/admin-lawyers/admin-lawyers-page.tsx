import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Cards from '@cloudscape-design/components/cards';
import ContentLayout from '@cloudscape-design/components/content-layout';
import Modal from '@cloudscape-design/components/modal';
import Pagination from '@cloudscape-design/components/pagination';
import { useState } from 'react';

import { type Lawyer, type LawyerSaveRequest, MESSAGES } from '../../../../shared';
import { ApiHttpError } from '../../api/api-errors';
import { useSaveLawyer } from '../../api/directory';
import { useSubmissionKey } from '../../api/submission-key';
import { DirectoryHeader, DirectorySearch } from '../../components/lawyer-details/directory-list';
import { type LawyerDialog, LawyerDialogs } from '../../components/lawyer-details/lawyer-dialogs';
import { useLawyerDirectory } from '../../components/lawyer-details/use-lawyer-directory';
import { LawyerForm, lawyerFormValues } from '../../components/lawyer-form/lawyer-form';
import { PageHeader } from '../../layout/page-header';
import { useNotifications } from '../../notifications/notifications-context';
import { STRINGS } from '../../strings';
import { fullName, lawyerCard } from './lawyer-cards-config';
import { ADMIN_LAWYERS_TEXT as TEXT } from './strings';

type ExistingLawyer = NonNullable<ApiHttpError['existingLawyer']>;

/** Cards on one page: the DOM stays this size whatever the number of lawyers. */
const LAWYERS_PER_PAGE = 12;

/** The create dialog; `conflict` once the server said the e-mail or key is an existing lawyer's. */
type Dialog =
  | { kind: 'create'; conflict?: { request: LawyerSaveRequest; existing: ExistingLawyer } }
  | LawyerDialog;

/**
 * Said in the 'Nouvel avocat' dialog when its e-mail or key is an existing lawyer's: nothing was
 * written; the update (the spec's save rule) happens only from this alert's button, and the form
 * stays as typed for a correction instead.
 */
function ExistingLawyerAlert({
  existing,
  onUpdate,
}: {
  readonly existing: ExistingLawyer;
  readonly onUpdate: () => Promise<void> | undefined;
}) {
  const [busy, setBusy] = useState(false);
  const name = fullName(existing);
  return (
    <Box margin={{ bottom: 'm' }}>
      <Alert
        type="warning"
        header={TEXT.confirmUpdate.title(name)}
        action={
          <Button
            loading={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onUpdate();
              } finally {
                setBusy(false);
              }
            }}
          >
            {TEXT.confirmUpdate.confirm(name)}
          </Button>
        }
      >
        {TEXT.confirmUpdate.body(name, existing.email)}
      </Alert>
    </Box>
  );
}

/**
 * 'Nouvel avocat': the form, and the alert once the server named an existing lawyer. Each content
 * sent goes with its own Idempotency-Key, the same again if it is sent again (a lost reply answers
 * with the lawyer created, not with a 409 naming him); a new dialog starts new keys.
 */
function NewLawyerDialog({
  conflict,
  onSave,
  onDismiss,
}: {
  readonly conflict: Extract<Dialog, { kind: 'create' }>['conflict'];
  readonly onSave: (request: LawyerSaveRequest, createOnly: boolean, idempotencyKey: string) => Promise<void>;
  readonly onDismiss: () => void;
}) {
  const submissionKey = useSubmissionKey();
  const send = (request: LawyerSaveRequest, createOnly: boolean) =>
    onSave(request, createOnly, submissionKey({ request, createOnly }));
  return (
    <Modal visible size="large" header={TEXT.createTitle} onDismiss={onDismiss}>
      {conflict && (
        <ExistingLawyerAlert existing={conflict.existing} onUpdate={() => send(conflict.request, false)} />
      )}
      <LawyerForm
        variant="lawyer"
        initial={lawyerFormValues(null)}
        showLicenseKey
        submitLabel={TEXT.create}
        onSubmit={(request) => send(request, true)}
        onCancel={onDismiss}
      />
    </Modal>
  );
}

/**
 * 'Consultation des Avocats' (/admin/lawyers, spec §2): the lawyers as cards with a search,
 * their details (secrets on an audited request), deletion of a lawyer and all his data, and the
 * creation of a new lawyer with his licence key.
 */
export function AdminLawyersPage() {
  const notifications = useNotifications();
  const directory = useLawyerDirectory({
    pageSize: LAWYERS_PER_PAGE,
    deleted: (lawyer) => MESSAGES.directory.lawyerDeleted(fullName(lawyer)),
    deleteFailed: MESSAGES.directory.deleteLawyerFailed,
  });
  const saveLawyer = useSaveLawyer();
  const [dialog, setDialog] = useState<Dialog | null>(null);

  /**
   * 'Nouvel avocat' saves in create-only mode: when the e-mail or the key is already a lawyer's,
   * the server names him and the admin is asked before the spec's save rule updates him.
   */
  const save = async (request: LawyerSaveRequest, createOnly: boolean, idempotencyKey: string) => {
    try {
      const { lawyer, created } = await saveLawyer.mutateAsync({ request, createOnly, idempotencyKey });
      notifications.success(
        created
          ? MESSAGES.lawyerSave.created(lawyer.firstName, lawyer.lastName)
          : MESSAGES.lawyerSave.updated(lawyer.firstName, lawyer.lastName),
      );
      setDialog(null);
    } catch (error) {
      if (createOnly && error instanceof ApiHttpError && error.existingLawyer) {
        setDialog({ kind: 'create', conflict: { request, existing: error.existingLawyer } });
        return;
      }
      const failed = createOnly ? MESSAGES.lawyerSave.createFailed : MESSAGES.lawyerSave.updateFailed;
      notifications.error(
        error instanceof Error && error.message ? failed(error.message) : MESSAGES.lawyerSave.saveFailed,
      );
    }
  };

  const remove = (lawyer: Lawyer) =>
    directory.remove(lawyer).then(
      () => setDialog(null),
      () => undefined,
    );
  const { lawyers } = directory;

  return (
    <ContentLayout
      header={
        <PageHeader
          title={TEXT.title}
          description={TEXT.description}
          actions={
            <Button variant="primary" iconName="add-plus" onClick={() => setDialog({ kind: 'create' })}>
              {TEXT.newLawyer}
            </Button>
          }
        />
      }
    >
      <Cards<Lawyer>
        items={directory.items}
        pagination={<Pagination {...lawyers.pagination} ariaLabels={STRINGS.lists.pagination} />}
        trackBy="id"
        loading={lawyers.loading}
        loadingText={TEXT.loading}
        cardsPerRow={[{ cards: 1 }, { minWidth: 700, cards: 2 }, { minWidth: 1200, cards: 3 }]}
        header={<DirectoryHeader title={TEXT.title} total={directory.total} />}
        filter={
          <DirectorySearch
            directory={directory}
            label={TEXT.search}
            countText={
              directory.searching && lawyers.page
                ? STRINGS.lists.matches(directory.items.length, lawyers.query.hasNextPage)
                : undefined
            }
          />
        }
        cardDefinition={lawyerCard({
          details: (lawyer) => setDialog({ kind: 'details', lawyer }),
          remove: (lawyer) => setDialog({ kind: 'delete', lawyer }),
        })}
        empty={
          <Box textAlign="center" color="inherit">
            {lawyers.query.error ? lawyers.query.error.message : MESSAGES.directory.noLawyerFound}
          </Box>
        }
      />

      {dialog?.kind === 'create' && (
        <NewLawyerDialog conflict={dialog.conflict} onSave={save} onDismiss={() => setDialog(null)} />
      )}
      <LawyerDialogs
        dialog={dialog?.kind === 'create' ? null : dialog}
        variant="lawyer"
        deleteTexts={TEXT}
        onDelete={remove}
        onClose={() => setDialog(null)}
      />
    </ContentLayout>
  );
}
