import { matchesTerms, searchTermsOf, searchText } from '../../../functions/domain/directory/search-terms';
import { WORKFLOW_TYPES, type Workflow } from '../../../shared';
import { jsonResponse } from './fetch-mock';

/*
 * The list and count replies of a fake backend, answered as the server does: searched by word
 * beginnings, kept to the folder, state and type asked for, a page at a time (the cursor is an
 * index here), counted over everything the backend holds.
 */

/** Whether the texts hold the search `q` of the query as the server reads it. */
export function matchesQuery(query: URLSearchParams, texts: readonly (string | null | undefined)[]): boolean {
  const q = query.get('q')?.trim();
  return !q || matchesTerms(searchText(texts), searchTermsOf(q));
}

/** One page of items: `limit` after the cursor. */
export function pageOf<T>(items: readonly T[], query: URLSearchParams) {
  const limit = Number(query.get('limit') ?? 50);
  const start = Number(query.get('cursor') ?? 0);
  const end = start + limit;
  return { items: items.slice(start, end), nextCursor: end < items.length ? String(end) : null };
}

/** The automations a GET /api/workflows asks for, among `workflows`. */
export function workflowsAskedFor(workflows: readonly Workflow[], url: string): Workflow[] {
  const query = new URL(url, 'http://localhost').searchParams;
  return workflows.filter(
    (workflow) =>
      matchesQuery(query, [
        workflow.name,
        workflow.description,
        workflow.category,
        ...(workflow.tags ?? []),
      ]) &&
      (!query.get('folderId') || workflow.folderId === query.get('folderId')) &&
      (!query.get('lawyerEmail') || workflow.lawyerEmail === query.get('lawyerEmail')) &&
      (!query.get('active') || String(workflow.active) === query.get('active')) &&
      (!query.get('scheduled') || String(workflow.cronSettings.enabled) === query.get('scheduled')) &&
      (!query.get('type') || workflow.type === query.get('type')),
  );
}

/** The reply of GET /api/workflows over `workflows`. */
export function workflowListReply(
  workflows: readonly Workflow[],
  url: string,
  owners: readonly unknown[] = [],
) {
  const { items, nextCursor } = pageOf(
    workflowsAskedFor(workflows, url),
    new URL(url, 'http://localhost').searchParams,
  );
  return jsonResponse(200, { workflows: items, nextCursor, owners });
}

/** Total, Actives, Planifiées of some automations. */
export function flagCounts(workflows: readonly Workflow[]) {
  return {
    total: workflows.length,
    active: workflows.filter((workflow) => workflow.active).length,
    scheduled: workflows.filter((workflow) => workflow.cronSettings.enabled).length,
  };
}

/** The reply of GET /api/counts over `workflows`. */
export function countsReply(
  workflows: readonly Workflow[],
  lawyers: number | null = null,
  folders: number | null = null,
) {
  return jsonResponse(200, {
    workflows: {
      ...flagCounts(workflows),
      running: workflows.filter((workflow) => workflow.active && workflow.cronSettings.enabled).length,
      byType: Object.fromEntries(
        WORKFLOW_TYPES.map((type) => [type, workflows.filter((workflow) => workflow.type === type).length]),
      ),
    },
    lawyers,
    folders,
  });
}

/** Whether a request is a GET of this API path, whatever its query. */
export const isGet = (request: { readonly method: string; readonly url: string }, path: string) =>
  request.method === 'GET' && new URL(request.url, 'http://localhost').pathname === path;
