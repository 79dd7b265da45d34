import type { Workflow } from '../../../../shared';

/** Case- and accent-insensitive search over a workflow's name and description (spec §2). */
export function matchesWorkflow(workflow: Workflow, query: string): boolean {
  const fold = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const wanted = fold(query.trim());
  return !wanted || fold(`${workflow.name} ${workflow.description}`).includes(wanted);
}

/** Counters of a set of workflows: Total, Actives, Planifiées. */
export function workflowCounts(workflows: readonly Workflow[]) {
  return {
    total: workflows.length,
    active: workflows.filter((workflow) => workflow.active).length,
    scheduled: workflows.filter((workflow) => workflow.cronSettings.enabled).length,
  };
}
