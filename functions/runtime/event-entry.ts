import type { Context } from 'aws-lambda';

import type { AppDependencies } from './dependencies';

/**
 * The Lambda entry of an event handler (the minute schedule, the queue): like `lambdaEntry` for
 * the API, the AWS composition root is built on the first invocation and then kept, so importing
 * the file outside Lambda touches no environment variable. Each invocation is observed by
 * Powertools (request id on the logs, metrics flushed at its end).
 */
export function lambdaEventEntry<E, R>(create: (deps: AppDependencies) => (event: E) => Promise<R>) {
  let handler: ((event: E) => Promise<R>) | undefined;
  return async (event: E, context?: Context): Promise<R> => {
    const [{ awsDependencies }, { observeInvocation }] = await Promise.all([
      import('./aws'),
      import('./powertools'),
    ]);
    handler ??= create(awsDependencies());
    const run = handler;
    return observeInvocation(context, () => run(event));
  };
}
