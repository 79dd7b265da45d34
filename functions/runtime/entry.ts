import type { Context } from 'aws-lambda';
import type { FunctionName } from '../needs';
import { NEEDS } from '../needs';
import { declaredDependencies } from './declared';
import type { AppDependencies } from './dependencies';
import { type Environment, readEnvironment } from './environment';

/** A function's handler: an API Gateway event, an SQS batch, a schedule's input… */
export type LambdaHandler<E, R, C = unknown> = (event: E, context: C) => Promise<R>;

/**
 * A handler factory held to its declaration: whatever world calls it (the AWS root, the local
 * runtime, the tests), the handler receives only what `NEEDS[name]` declares.
 */
export function declaredFunction<H>(
  name: FunctionName,
  create: (deps: AppDependencies) => H,
): (deps: AppDependencies) => H {
  return (deps) => create(declaredDependencies(name, deps));
}

/**
 * The Lambda entry of a function, API or event alike. In Lambda (AWS_LAMBDA_FUNCTION_NAME is set)
 * the variables of its declared needs are read at cold start, a missing one failing the init
 * with its name, and the AWS composition root starts building at once; the first invocation
 * awaits it. Imported anywhere else (tests, the local runtime) it reads nothing.
 */
export function lambdaEntry<E, R, C>(
  name: FunctionName,
  create: (deps: AppDependencies) => LambdaHandler<E, R, C>,
): LambdaHandler<E, R, C> {
  let handler: Promise<LambdaHandler<E, R, C>> | undefined;
  const build = (environment: Environment) => {
    // Each invocation is observed by Powertools: request id and cold start on the logs, metrics
    // flushed at its end.
    handler = Promise.all([import('./aws'), import('./powertools')]).then(
      async ([{ awsDependencies }, { observeInvocation }]) => {
        const run = create(await awsDependencies(name, environment));
        return (event: E, context: C) =>
          observeInvocation(context as Context | undefined, () => run(event, context));
      },
    );
    // Awaited by the first invocation, which reports the failure; not an unhandled rejection.
    handler.catch(() => undefined);
    return handler;
  };
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) build(readEnvironment(NEEDS[name]));
  return async (event, context) => {
    const ready = await (handler ?? build(readEnvironment(NEEDS[name])));
    return ready(event, context);
  };
}
