import { randomUUID } from 'node:crypto';

import type { Table } from '../../functions/data/table/table';

/** The DynamoDB calls of some work, as a middleware on the real client saw them. */
export interface DynamoCalls {
  /** The command names, in the order they were sent. */
  readonly commands: string[];
  /**
   * The longest chain of calls each sent after the one before it had answered: the calls that
   * wait for each other (calls sent together, before either answered, do not).
   */
  readonly inSequence: number;
}

/**
 * Counts the calls `work` sends through the table's client (they still go to DynamoDB Local) and
 * how many of them wait for each other, from the order of sends and answers alone.
 */
export async function dynamoCallsOf(table: Table, work: () => Promise<unknown>): Promise<DynamoCalls> {
  const name = `dynamodb-calls-${randomUUID()}`;
  const commands: string[] = [];
  /** For each call, the chain it ends: one more than the longest of those answered before it was sent. */
  const answered: number[] = [];
  table.doc.middlewareStack.add(
    (next, context) => async (args) => {
      commands.push(context.commandName ?? 'unknown');
      const depth = 1 + Math.max(0, ...answered);
      try {
        return await next(args);
      } finally {
        answered.push(depth);
      }
    },
    { step: 'initialize', name },
  );
  try {
    await work();
  } finally {
    table.doc.middlewareStack.remove(name);
  }
  return { commands, inSequence: Math.max(0, ...answered) };
}
