import type { Execution } from '../../../shared/schemas/scheduler';
import type { Page } from '../core/ports';
import { type ProfileLookup, visibleWorkflow } from '../directory/members';
import type { Workflows } from '../directory/ports';
import type { SessionContext } from '../identity/sessions';
import type { Executions } from './ports';

export interface ExecutionHistoryDependencies {
  readonly workflows: Pick<Workflows, 'getById'>;
  readonly lawyers: ProfileLookup;
  readonly executions: Pick<Executions, 'listByWorkflow'>;
}

/** The calls of a workflow, newest first: any workflow's for an admin, his own for a lawyer or notary. */
export class ExecutionHistory {
  constructor(private readonly deps: ExecutionHistoryDependencies) {}

  async page(
    session: SessionContext,
    workflowId: string,
    limit: number,
    cursor?: string,
  ): Promise<Page<Execution>> {
    const workflow = await visibleWorkflow(this.deps.workflows, this.deps.lawyers, session, workflowId);
    return this.deps.executions.listByWorkflow(workflow.id, limit, cursor);
  }
}
