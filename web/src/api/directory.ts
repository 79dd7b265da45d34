import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import {
  type DirectoryCounts,
  type Folder,
  type FolderInput,
  type LawyerSaveRequest,
  MESSAGES,
  type RequestOf,
  type Workflow,
  type WorkflowCreateInput,
  type WorkflowUpdateInput,
} from '../../../shared';
import { callApi } from './api-client';
import { KEYS, type WorkflowPageQuery } from './keys';
import { useServerPages } from './server-pages';

/*
 * The directory's server state: automations, folders, lawyers and their counts. Every list is read
 * a page at a time on the server, searched there (`q`), and counted there (`/api/counts`).
 */

/** The counts the screens show: everyone's for an admin, his own for a member. */
export const countsQuery = queryOptions({
  queryKey: KEYS.counts,
  queryFn: ({ signal }) => callApi('directoryCounts', { signal }),
});

export function useCounts(): DirectoryCounts | undefined {
  return useQuery(countsQuery).data;
}

/** Pages of automations matching `query` (search, folder, state, type), newest first. */
export function useWorkflowPages(query: WorkflowPageQuery, enabled = true) {
  return useServerPages({
    queryKey: KEYS.workflows(query),
    read: (cursor, signal) =>
      callApi('listWorkflows', {
        query: stringQuery({ ...query, cursor }),
        signal,
      }),
    errorMessage: MESSAGES.workflow.listLoadFailed,
    enabled,
  });
}

/** Pages of folders (with their counts) matching the search, newest first. */
export function useFolderPages(q: string, enabled = true) {
  return useServerPages({
    queryKey: KEYS.folders(q),
    read: (cursor, signal) => callApi('listFolders', { query: stringQuery({ q, cursor }), signal }),
    enabled,
  });
}

/** Pages of lawyers matching the search (first name, last name, e-mail, office name), newest first. */
export function useLawyerPages(q: string, limit: number, errorMessage?: string, enabled = true) {
  return useServerPages({
    queryKey: KEYS.lawyers(q, limit),
    read: (cursor, signal) => callApi('listLawyers', { query: stringQuery({ q, cursor, limit }), signal }),
    ...(errorMessage ? { errorMessage } : {}),
    enabled,
  });
}

/** A query's values as the query string carries them; an empty search is no search. */
function stringQuery(query: Readonly<Record<string, string | number | boolean | undefined>>) {
  return Object.fromEntries(
    Object.entries(query)
      .filter(([name, value]) => value !== undefined && !(name === 'q' && String(value).trim() === ''))
      .map(([name, value]) => [name, String(value)]),
  );
}

/** After a change to automations: their lists, the counts and the folders' counts are read again. */
function useDirectoryChanged() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: KEYS.allWorkflows }),
      client.invalidateQueries({ queryKey: KEYS.counts }),
      client.invalidateQueries({ queryKey: KEYS.allFolders }),
    ]);
}

/** Replaces an automation in every list shown (a switch's reply says what it is now). */
export function useReplaceWorkflow() {
  const client = useQueryClient();
  return (saved: Workflow) =>
    client.setQueriesData<{ pages: { workflows: Workflow[] }[] }>({ queryKey: KEYS.allWorkflows }, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              workflows: page.workflows.map((workflow) => (workflow.id === saved.id ? saved : workflow)),
            })),
          }
        : data,
    );
}

/** Creates or edits an automation; the lists and counts follow. */
export function useSaveWorkflow() {
  const changed = useDirectoryChanged();
  return useMutation({
    mutationFn: (save: {
      readonly id?: string;
      /** A create's Idempotency-Key (`useSubmissionKey`). */
      readonly idempotencyKey?: string;
      readonly fields: WorkflowCreateInput & WorkflowUpdateInput;
    }) =>
      save.id
        ? callApi('updateWorkflow', { params: { id: save.id }, body: save.fields })
        : callApi('createWorkflow', { body: save.fields, idempotencyKey: save.idempotencyKey }),
    onSuccess: changed,
  });
}

/** Files an automation in a folder (or takes it out). */
export function useFileWorkflow() {
  const changed = useDirectoryChanged();
  return useMutation({
    mutationFn: ({ id, folderId }: { readonly id: string; readonly folderId: string | null }) =>
      callApi('updateWorkflow', { params: { id }, body: { folderId } }),
    onSettled: changed,
  });
}

export function useDeleteWorkflow() {
  const changed = useDirectoryChanged();
  return useMutation({
    mutationFn: (id: string) => callApi('deleteWorkflow', { params: { id } }),
    onSuccess: changed,
    meta: { errorMessage: MESSAGES.workflow.deleteFailed },
  });
}

/** Switches an automation's state or scheduling: the card shows the reply at once, counts follow. */
/**
 * Flips an automation's switch. A toggle is not idempotent: when its reply is lost (a 5xx, the
 * network) the server may have flipped it, and a press again on the switch as it was drawn would
 * flip it back. So a failed toggle reads the automation again before it ends (the switch stays
 * busy meanwhile) and the lists show the server's state once.
 */
export function useToggleWorkflow() {
  const replace = useReplaceWorkflow();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, flag }: { readonly id: string; readonly flag: 'active' | 'scheduling' }) => {
      try {
        return await callApi(flag === 'active' ? 'toggleWorkflowActive' : 'toggleWorkflowScheduling', {
          params: { id },
        });
      } catch (error) {
        await callApi('getWorkflow', { params: { id } }).then(replace, () => undefined);
        throw error;
      }
    },
    onSuccess: (saved) => {
      replace(saved);
      void client.invalidateQueries({ queryKey: KEYS.counts });
      void client.invalidateQueries({ queryKey: KEYS.allFolders });
    },
  });
}

export function useSaveFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: {
      readonly id?: string;
      /** A create's Idempotency-Key (`useSubmissionKey`). */
      readonly idempotencyKey?: string;
      readonly fields: FolderInput;
    }): Promise<Folder> =>
      save.id
        ? callApi('updateFolder', { params: { id: save.id }, body: save.fields })
        : callApi('createFolder', { body: save.fields, idempotencyKey: save.idempotencyKey }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: KEYS.allFolders }),
        client.invalidateQueries({ queryKey: KEYS.counts }),
      ]),
  });
}

export function useDeleteFolder() {
  const changed = useDirectoryChanged();
  return useMutation({
    mutationFn: (id: string) => callApi('deleteFolder', { params: { id } }),
    onSuccess: changed,
  });
}

/** The admin's save of a lawyer ('Nouvel avocat' is create-only: a 409 names the lawyer found). */
export function useSaveLawyer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      request,
      createOnly,
      idempotencyKey,
    }: {
      readonly request: LawyerSaveRequest;
      readonly createOnly: boolean;
      /** One per content the 'Nouvel avocat' dialog sends (`useSubmissionKey`). */
      readonly idempotencyKey?: string;
    }) =>
      callApi('saveLawyer', {
        body: { ...request, createOnly },
        ...(idempotencyKey ? { idempotencyKey } : {}),
      }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: KEYS.allLawyers }),
        client.invalidateQueries({ queryKey: KEYS.counts }),
      ]),
  });
}

export function useDeleteLawyer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi('deleteLawyer', { params: { id } }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: KEYS.allLawyers }),
        client.invalidateQueries({ queryKey: KEYS.counts }),
        client.invalidateQueries({ queryKey: KEYS.allWorkflows }),
      ]),
  });
}

/** The type of a lawyer's licence, read from the licence itself when his details open. */
export const licenseTypeQuery = (lawyerId: string) =>
  queryOptions({
    queryKey: KEYS.licenseType(lawyerId),
    queryFn: async ({ signal }) =>
      (await callApi('getLicenseRole', { params: { id: lawyerId }, signal })).licenseType,
  });

/** The admin's switch of a lawyer's licence between a lawyer's and a notary's; the details follow. */
export function useSetLicenseRole(lawyerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: RequestOf<'setLicenseRole'>) =>
      callApi('setLicenseRole', { params: { id: lawyerId }, body: change }),
    onSuccess: (reply) => client.setQueryData(KEYS.licenseType(lawyerId), reply.licenseType),
  });
}

/** The admin sends a lawyer's licence key again by e-mail; the lists read him again, mark cleared. */
export function useResendLicenseEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (lawyerId: string) => callApi('resendLicenseEmail', { params: { id: lawyerId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS.allLawyers }),
  });
}

/** The lawyer's secrets, revealed on the admin's request (audited by the server). */
export const revealLawyerSecrets = (id: string) => callApi('revealLawyerSecrets', { params: { id } });

/** A lawyer's licence key in clear, revealed on the admin's request (step-up, audited by the server). */
export const revealLawyerLicenseKey = (id: string) => callApi('revealLawyerLicenseKey', { params: { id } });
