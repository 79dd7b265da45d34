import type { Workflow } from '../../../../shared';
import { matchesSearch } from '../../format/search';

/** Whether a workflow matches a search over its name and description (spec §2). */
export function matchesWorkflow(workflow: Workflow, query: string): boolean {
  return matchesSearch(query, [workflow.name, workflow.description]);
}

/** Counters of a set of workflows: Total, Actives, Planifiées. */
export function workflowCounts(workflows: readonly Workflow[]) {
  return {
    total: workflows.length,
    active: workflows.filter((workflow) => workflow.active).length,
    scheduled: workflows.filter((workflow) => workflow.cronSettings.enabled).length,
  };
}
