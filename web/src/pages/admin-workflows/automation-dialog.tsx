import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Form from '@cloudscape-design/components/form';
import FormField from '@cloudscape-design/components/form-field';
import Input from '@cloudscape-design/components/input';
import Modal from '@cloudscape-design/components/modal';
import Select, { type SelectProps } from '@cloudscape-design/components/select';
import SpaceBetween from '@cloudscape-design/components/space-between';
import Textarea from '@cloudscape-design/components/textarea';
import { useState } from 'react';

import {
  AutomationForm,
  type Lawyer,
  MESSAGES,
  WORKFLOW_TYPES,
  type Workflow,
  WorkflowCategoryText,
  WorkflowTags,
  type WorkflowType,
} from '../../../../shared';
import { useCounts, useFolderPages, useLawyerPages, useSaveWorkflow } from '../../api/directory';
import { useSubmissionKey } from '../../api/submission-key';
import { HEALTH_TEXT } from '../../components/workflows/health-strings';
import { workflowTypeLabel } from '../../components/workflows/workflow-display';
import { TestConnectionButton } from '../../components/workflows/workflow-health';
import { defaultWebhookUrl, WORKFLOW_TEMPLATES } from '../../config/workflow-templates';
import { useDebounced } from '../../layout/use-debounced';
import { useNotifications } from '../../notifications/notifications-context';
import { serverSelectProps } from './server-select';
import { ADMIN_WORKFLOWS_TEXT } from './strings';

const TEXT = ADMIN_WORKFLOWS_TEXT.automationDialog;

type Field = 'templateType' | 'name' | 'description' | 'webhookUrl' | 'lawyerEmail' | 'category' | 'tags';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

/** The tags typed in the field, comma-separated: 'urgent, divorce' is ['urgent', 'divorce']. */
export const tagsOfText = (text: string): string[] =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/**
 * Validates the form with the shared schemas; one French message per field (spec §5). `lawyers` are
 * those the form knows (the one chosen in the list, or the workflow's own when editing).
 */
export function validateAutomation(values: Values, lawyers: readonly Pick<Lawyer, 'email'>[]): Errors {
  const parsed = AutomationForm.safeParse({ ...values, enableCron: true });
  const errors: Errors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as Field;
      errors[field] ??= issue.message;
    }
  }
  const tags = WorkflowTags.safeParse(tagsOfText(values.tags));
  if (!tags.success) errors.tags = tags.error.issues[0]?.message;
  const category = WorkflowCategoryText.safeParse(values.category);
  if (!category.success) errors.category = category.error.issues[0]?.message;
  if (!errors.lawyerEmail && !lawyers.some((lawyer) => lawyer.email === values.lawyerEmail)) {
    errors.lawyerEmail = MESSAGES.workflow.unknownLawyer;
  }
  return errors;
}

function templateValues(type: WorkflowType): Pick<Values, 'name' | 'description' | 'webhookUrl'> {
  const template = WORKFLOW_TEMPLATES[type];
  return { name: template.name, description: template.description, webhookUrl: defaultWebhookUrl(type) };
}

/** Lawyers and folders offered a page at a time, searched on the server as the admin types. */
const OPTIONS_PAGE_SIZE = 20;

export interface AutomationDialogProps {
  /** The workflow to edit; absent to create one. */
  readonly workflow?: Workflow;
  /** The folder a new workflow goes into ('Ajouter au Dossier'). */
  readonly folderId?: string | null;
  readonly onSaved: (workflow: Workflow) => void;
  readonly onDismiss: () => void;
}

/**
 * What saving an edit does to the workflow's scheduling, said in the dialog before 'Enregistrer':
 * it stays as it is, unless the webhook address changes, which stops it (the server applies the
 * same rule), so that a new address is never called before the admin switches it back on.
 */
export function schedulingAfterEdit(
  workflow: Workflow,
  webhookUrl: string,
): { readonly stops: boolean; readonly text: string } {
  if (!workflow.cronSettings.enabled) return { stops: false, text: TEXT.schedulingStaysOff };
  if (webhookUrl.trim() !== workflow.webhookUrl) return { stops: true, text: TEXT.schedulingStopsOnNewUrl };
  return { stops: false, text: TEXT.schedulingStaysOn(workflow.cronSettings.interval) };
}

/**
 * The create / edit automation dialog (spec §2, §5): in create mode the type pre-fills name,
 * description and webhook; in edit mode the lawyer is locked. A new workflow starts with
 * scheduling off whatever the form's enableCron says (spec §5); an edit keeps it as it was unless
 * the webhook address changes, and the dialog says which before saving.
 */
export function AutomationDialog({ workflow, folderId = null, onSaved, onDismiss }: AutomationDialogProps) {
  const notifications = useNotifications();
  const save = useSaveWorkflow();
  const [lawyerQuery, setLawyerQuery] = useState('');
  const [folderQuery, setFolderQuery] = useState('');
  const lawyerPages = useLawyerPages(
    useDebounced(lawyerQuery.trim()),
    OPTIONS_PAGE_SIZE,
    MESSAGES.workflow.lawyersLoadFailed,
  );
  const folderPages = useFolderPages(useDebounced(folderQuery.trim()));
  const counts = useCounts();
  const [chosenLawyer, setChosenLawyer] = useState<Pick<Lawyer, 'email' | 'firstName' | 'lastName'> | null>(
    null,
  );
  const [chosenFolder, setChosenFolder] = useState<{ id: string; name: string } | null>(null);
  const lawyers = lawyerPages.pages.flatMap((page) => page.lawyers);
  const folders = folderPages.pages.flatMap((page) => page.folders);
  // An edited automation's lawyer may have left the directory since: looked up by his e-mail.
  const ownerPages = useLawyerPages(
    workflow?.lawyerEmail ?? '',
    OPTIONS_PAGE_SIZE,
    MESSAGES.workflow.lawyersLoadFailed,
    workflow !== undefined,
  );
  const owner = ownerPages.page?.lawyers.find((lawyer) => lawyer.email === workflow?.lawyerEmail);
  const lawyersLoading = counts === undefined || (workflow !== undefined && ownerPages.loading);
  // The form knows the lawyer chosen in the list and, when editing, the workflow's own.
  const known = [...(chosenLawyer ? [chosenLawyer] : []), ...(owner ? [owner] : [])];
  const editing = workflow !== undefined;
  const [values, setValues] = useState<Values>(() =>
    workflow
      ? {
          templateType: workflow.type,
          name: workflow.name,
          description: workflow.description,
          webhookUrl: workflow.webhookUrl,
          lawyerEmail: workflow.lawyerEmail,
          category: workflow.category ?? '',
          tags: (workflow.tags ?? []).join(', '),
        }
      : {
          templateType: 'client_management',
          lawyerEmail: '',
          category: '',
          tags: '',
          ...templateValues('client_management'),
        },
  );
  const [folder, setFolder] = useState<string | null>(workflow ? workflow.folderId : folderId);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const submissionKey = useSubmissionKey();
  const errors = submitted ? validateAutomation(values, known) : {};
  const noLawyer = counts?.lawyers === 0;
  const afterEdit = workflow ? schedulingAfterEdit(workflow, values.webhookUrl) : null;

  const set = (field: Field, value: string) => setValues((current) => ({ ...current, [field]: value }));
  const chooseType = (type: WorkflowType) =>
    setValues((current) =>
      editing
        ? { ...current, templateType: type }
        : { ...current, templateType: type, ...templateValues(type) },
    );

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(validateAutomation(values, known)).length > 0) return;
    setSaving(true);
    const fields = {
      name: values.name,
      description: values.description,
      webhookUrl: values.webhookUrl,
      lawyerEmail: values.lawyerEmail,
      type: values.templateType as WorkflowType,
      folderId: folder,
      // Sent whole, even unchanged: an edit replaces the tags and category as the dialog shows them.
      tags: tagsOfText(values.tags),
      category: values.category.trim() || null,
    };
    try {
      // Spec §5: a new workflow starts with scheduling off (the server sees to it). An edit sends
      // no scheduling at all: fixing a typo must not stop a client's running automation.
      const saved = await save.mutateAsync({
        ...(workflow ? { id: workflow.id } : { idempotencyKey: submissionKey(fields) }),
        fields,
      });
      notifications.success(editing ? MESSAGES.workflow.updated : MESSAGES.workflow.created);
      onSaved(saved);
    } catch (error) {
      const failure = editing ? MESSAGES.workflow.updateFailed : MESSAGES.workflow.createFailed;
      notifications.error(
        error instanceof Error && error.message ? `${failure} : ${error.message}` : failure,
      );
    } finally {
      setSaving(false);
    }
  };

  const typeOptions: SelectProps.Option[] = WORKFLOW_TYPES.map((type) => ({
    value: type,
    label: workflowTypeLabel(type),
  }));
  const lawyerOptions: SelectProps.Option[] = lawyers.map((lawyer) => ({
    value: lawyer.email,
    label: `${lawyer.firstName} ${lawyer.lastName}`,
    description: lawyer.email,
  }));
  const selectedLawyer: SelectProps.Option | null = values.lawyerEmail
    ? (lawyerOptions.find((option) => option.value === values.lawyerEmail) ??
      (chosenLawyer
        ? {
            value: chosenLawyer.email,
            label: `${chosenLawyer.firstName} ${chosenLawyer.lastName}`,
            description: chosenLawyer.email,
          }
        : { value: values.lawyerEmail, label: values.lawyerEmail }))
    : null;
  const folderOptions: SelectProps.Option[] = [
    { value: '', label: TEXT.folderNone },
    ...folders.map((item) => ({ value: item.id, label: item.name })),
  ];
  const selectedFolder: SelectProps.Option =
    folderOptions.find((option) => option.value === (folder ?? '')) ??
    (folder
      ? { value: folder, label: chosenFolder?.name ?? TEXT.folderChosen }
      : { value: '', label: TEXT.folderNone });
  return (
    <Modal
      visible
      size="medium"
      header={editing ? TEXT.editTitle : TEXT.createTitle}
      onDismiss={() => !saving && onDismiss()}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Form
          actions={
            <SpaceBetween direction="horizontal" size="xs">
              <Button formAction="none" variant="link" disabled={saving} onClick={onDismiss}>
                {TEXT.cancel}
              </Button>
              <Button variant="primary" loading={saving} disabled={lawyersLoading || noLawyer}>
                {editing ? TEXT.save : TEXT.create}
              </Button>
            </SpaceBetween>
          }
        >
          <SpaceBetween size="m">
            {noLawyer && <Alert type="warning">{MESSAGES.validation.noLawyerAvailable}</Alert>}
            <FormField
              label={TEXT.templateType}
              description={editing ? undefined : TEXT.templateHint}
              errorText={errors.templateType}
            >
              <Select
                selectedOption={typeOptions.find((option) => option.value === values.templateType) ?? null}
                options={typeOptions}
                onChange={({ detail }) => chooseType(detail.selectedOption.value as WorkflowType)}
              />
            </FormField>
            <FormField label={TEXT.name} errorText={errors.name}>
              <Input value={values.name} onChange={({ detail }) => set('name', detail.value)} />
            </FormField>
            <FormField label={TEXT.description} errorText={errors.description}>
              <Textarea
                value={values.description}
                rows={3}
                onChange={({ detail }) => set('description', detail.value)}
              />
            </FormField>
            <FormField
              label={TEXT.webhookUrl}
              errorText={errors.webhookUrl}
              description={workflow ? HEALTH_TEXT.testSavedUrl : undefined}
              secondaryControl={workflow && <TestConnectionButton workflow={workflow} />}
            >
              <Input
                type="url"
                inputMode="url"
                value={values.webhookUrl}
                onChange={({ detail }) => set('webhookUrl', detail.value)}
              />
            </FormField>
            <FormField
              label={TEXT.lawyer}
              description={editing ? TEXT.lawyerLocked : undefined}
              errorText={errors.lawyerEmail}
            >
              <Select
                selectedOption={selectedLawyer}
                options={lawyerOptions}
                placeholder={TEXT.lawyerPlaceholder}
                disabled={editing}
                {...serverSelectProps(lawyerPages, setLawyerQuery)}
                loadingText={TEXT.lawyersLoading}
                filteringPlaceholder={TEXT.lawyerSearch}
                onChange={({ detail }) => {
                  const lawyer = lawyers.find((candidate) => candidate.email === detail.selectedOption.value);
                  setChosenLawyer(lawyer ?? null);
                  set('lawyerEmail', detail.selectedOption.value ?? '');
                }}
              />
            </FormField>
            <FormField label={TEXT.folder}>
              <Select
                selectedOption={selectedFolder}
                options={folderOptions}
                {...serverSelectProps(folderPages, setFolderQuery)}
                loadingText={TEXT.foldersLoading}
                filteringPlaceholder={TEXT.folderSearch}
                onChange={({ detail }) => {
                  setChosenFolder(
                    detail.selectedOption.value
                      ? { id: detail.selectedOption.value, name: detail.selectedOption.label ?? '' }
                      : null,
                  );
                  setFolder(detail.selectedOption.value || null);
                }}
              />
            </FormField>
            <FormField
              label={TEXT.category}
              constraintText={TEXT.categoryConstraint}
              errorText={errors.category}
            >
              <Input
                value={values.category}
                placeholder={TEXT.categoryPlaceholder}
                onChange={({ detail }) => set('category', detail.value)}
              />
            </FormField>
            <FormField
              label={TEXT.tags}
              description={TEXT.tagsHint}
              constraintText={TEXT.tagsConstraint}
              errorText={errors.tags}
            >
              <Input
                value={values.tags}
                placeholder={TEXT.tagsPlaceholder}
                onChange={({ detail }) => set('tags', detail.value)}
              />
            </FormField>
            {afterEdit ? (
              <Alert type={afterEdit.stops ? 'warning' : 'info'}>{afterEdit.text}</Alert>
            ) : (
              <Box variant="small">{TEXT.enableCron}</Box>
            )}
          </SpaceBetween>
        </Form>
      </form>
    </Modal>
  );
}
