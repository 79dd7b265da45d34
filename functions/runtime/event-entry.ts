import type { AppDependencies } from './dependencies';

/**
 * The Lambda entry of an event handler (the minute schedule, the queue): like `lambdaEntry` for
 * the API, the AWS composition root is built on the first invocation and then kept, so importing
 * the file outside Lambda touches no environment variable.
 */
export function lambdaEventEntry<E, R>(create: (deps: AppDependencies) => (event: E) => Promise<R>) {
  let handler: ((event: E) => Promise<R>) | undefined;
  return async (event: E): Promise<R> => {
    if (!handler) {
      const { awsDependencies } = await import('./aws');
      handler = create(awsDependencies());
    }
    return handler(event);
  };
}
