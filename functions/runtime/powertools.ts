import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { MetricUnit, Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import type { Context } from 'aws-lambda';

import type { Metrics } from '../domain/core/metrics';
import { loggerPort } from './powertools-logger';

/**
 * Powertools for AWS Lambda behind the ports of `dependencies.ts`, one instance per execution
 * environment. The service name, the metrics namespace (the stack's name) and the log level come
 * from the POWERTOOLS_* variables the CDK stack sets (`lib/constructs/app-function.ts`).
 *
 * - Logger: one JSON object per line with the level, time, service, function, request id and cold
 *   start; Lambda's JSON log format keeps it as is. Callers pass facts, never a body, a header,
 *   a key or a token (the same rule as before; the Logger port has no way to pass an event).
 * - Metrics: CloudWatch embedded metric format, flushed at the end of each invocation.
 * - Tracer: the AWS SDK clients it is given appear as subsegments of the function's X-Ray trace.
 */
const logger = new PowertoolsLogger();
const metrics = new PowertoolsMetrics();
export const tracer = new Tracer();

/** The Lambda function's logger. */
export const powertoolsLogger = loggerPort(logger);

/** The Metrics port over Powertools' Metrics (EMF). */
export const powertoolsMetrics: Metrics = {
  count: (name, value = 1) => {
    metrics.addMetric(name, MetricUnit.Count, value);
  },
  duration: (name, milliseconds) => {
    metrics.addMetric(name, MetricUnit.Milliseconds, milliseconds);
  },
};

/**
 * Around one invocation: its request id and cold start on every log line, and its metrics written
 * at the end, whether it succeeded or threw (an invocation that recorded none writes nothing).
 */
export async function observeInvocation<R>(context: Context | undefined, run: () => Promise<R>): Promise<R> {
  if (context?.awsRequestId) logger.addContext(context);
  try {
    return await run();
  } finally {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  }
}
