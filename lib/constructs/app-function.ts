import { existsSync } from 'node:fs';
import { extname, isAbsolute } from 'node:path';

import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import { Charset, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

import { METRICS_SERVICE } from '../../functions/domain/core/metrics';
import { type FunctionName, NEEDS } from '../../functions/needs';
import { POWERTOOLS_VARIABLES } from '../../functions/runtime/environment';
import { stageSettingsOf } from '../settings';
import { bundleSettingsOf, POWERTOOLS_LAYER_PARAMETER } from './bundling';
import { REPOSITORY_ROOT, repositoryPath } from './repository';

export interface AppFunctionProps {
  /** Absolute path of the TypeScript file exporting `handler` (`handlerPathOf` of `functions/needs.ts`). */
  readonly entry: string;
  /**
   * The function's name in `functions/needs.ts`: its bundle keeps only the adapters declared
   * there. Absent for a function outside the application (the keys' custom resource).
   */
  readonly needs?: FunctionName;
  /** What the function does, shown in the Lambda console. */
  readonly description: string;
  /**
   * Maximum run time. An API function must answer within API Gateway's 30 s integration limit.
   * @default Duration.seconds(10)
   */
  readonly timeout?: Duration;
  /**
   * Memory in MB; Lambda gives CPU in proportion, so it also sets cold-start and crypto speed.
   * @default the `memoryMb` its needs declare, else 512
   */
  readonly memorySize?: number;
  /**
   * How long the function's logs are kept.
   * @default the stage's log retention, else logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
  /**
   * For a function invoked asynchronously: where an event every attempt of which threw is kept.
   * @default - none (a function called synchronously or by an event source mapping)
   */
  readonly asyncFailures?: {
    readonly queue: sqs.IQueue;
    readonly retryAttempts: number;
    readonly maxEventAge: Duration;
  };
}

/** The alias every caller (API, schedules, queue, claimers) invokes: moved back to roll back. */
export const LIVE_ALIAS = 'live';

/**
 * Our one way to build a Lambda function: bundled locally by esbuild (`bundling.ts`), Node.js 22 on
 * arm64, traced, with its own log group and role, and a published version behind the `live` alias.
 */
export class AppFunction extends NodejsFunction {
  /** What every caller invokes; a rollback points it at an earlier version (docs/operations.md). */
  readonly live: lambda.Alias;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    const declaredMemory = props.needs === undefined ? undefined : NEEDS[props.needs].memoryMb;
    const { entry, description, timeout = Duration.seconds(10), memorySize = declaredMemory ?? 512 } = props;
    validate(id, props, timeout, memorySize);
    const settings = bundleSettingsOf(props.needs);

    // A role and log group of its own: no managed policy, writes to this log group only.
    const stage = stageSettingsOf(scope);
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention ?? stage?.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: stage?.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Rôle de la fonction ${id}`,
    });
    logGroup.grantWrite(role);

    super(scope, id, {
      entry,
      handler: 'handler',
      description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      timeout,
      memorySize,
      role,
      logGroup,
      tracing: lambda.Tracing.ACTIVE,
      // Powertools (and the X-Ray SDK its Tracer uses) from the official layer; the bundle leaves
      // `@aws-lambda-powertools/*` out (bundling.ts).
      layers: [powertoolsLayerOf(scope)],
      // Powertools writes one JSON object per line; in Lambda's JSON format they stay as they are
      // (no text prefix), and Lambda's own lines (START, REPORT) are JSON too.
      loggingFormat: lambda.LoggingFormat.JSON,
      projectRoot: REPOSITORY_ROOT,
      depsLockFilePath: repositoryPath('package-lock.json'),
      environment: {
        // Powertools: one metrics namespace per stack, so two stages in one account never mix.
        [POWERTOOLS_VARIABLES.serviceName]: METRICS_SERVICE,
        [POWERTOOLS_VARIABLES.metricsNamespace]: Stack.of(scope).stackName,
        [POWERTOOLS_VARIABLES.logLevel]: stage?.logLevel ?? 'INFO',
      },
      // Earlier versions stay after an update so that the alias can be moved back to them.
      currentVersionOptions: { removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE },
      bundling: {
        format: OutputFormat.ESM,
        target: settings.target,
        mainFields: settings.mainFields,
        minify: settings.minify,
        charset: settings.charset === 'utf8' ? Charset.UTF8 : Charset.ASCII,
        sourceMap: settings.sourcemap,
        externalModules: settings.external,
        banner: settings.banner,
        define: settings.define,
      },
    });

    // Asynchronous invocations go through the alias, so its own invoke settings are the ones used.
    this.live = new lambda.Alias(this, 'Live', {
      aliasName: LIVE_ALIAS,
      version: this.currentVersion,
      ...(props.asyncFailures
        ? {
            onFailure: new destinations.SqsDestination(props.asyncFailures.queue),
            retryAttempts: props.asyncFailures.retryAttempts,
            maxEventAge: props.asyncFailures.maxEventAge,
          }
        : {}),
    });

    NagSuppressions.addResourceSuppressions(this, [
      {
        id: 'AwsSolutions-L1',
        reason:
          'The runtime is pinned to nodejs22.x, the Node.js line the project is built and tested on ' +
          '(ARCHITECTURE.md); moving to a newer line is a deliberate, tested upgrade.',
      },
      {
        id: 'Serverless-LambdaLatestVersion',
        reason: 'Pinned to nodejs22.x on purpose, see AwsSolutions-L1.',
      },
    ]);
    if (props.asyncFailures) {
      NagSuppressions.addResourceSuppressions(this, [
        {
          id: 'Serverless-LambdaDLQ',
          reason:
            'Its asynchronous failures go to an on-failure destination (asyncFailures), which keeps ' +
            'the error with the event; a dead-letter queue as well would keep each failure twice.',
        },
      ]);
    }
    NagSuppressions.addResourceSuppressions(
      role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no ' +
            'resource-level permission, so their resource is "*".',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
  }
}

/**
 * The official Powertools layer of the installed version, one per stack: its ARN is read at
 * deployment from the public SSM parameter AWS publishes for the release in the stack's region.
 */
function powertoolsLayerOf(scope: Construct): lambda.ILayerVersion {
  const stack = Stack.of(scope);
  const id = 'PowertoolsLayer';
  const existing = stack.node.tryFindChild(id) as lambda.ILayerVersion | undefined;
  if (existing) return existing;
  return lambda.LayerVersion.fromLayerVersionArn(
    stack,
    id,
    ssm.StringParameter.valueForStringParameter(stack, POWERTOOLS_LAYER_PARAMETER),
  );
}

function validate(id: string, props: AppFunctionProps, timeout: Duration, memorySize: number): void {
  const problems: string[] = [];
  if (!isAbsolute(props.entry) || extname(props.entry) !== '.ts') {
    problems.push(`entry must be an absolute path to a .ts file (got "${props.entry}")`);
  } else if (!existsSync(props.entry)) {
    problems.push(`entry ${props.entry} does not exist`);
  }
  const seconds = timeout.toSeconds();
  if (seconds < 1 || seconds > 900) problems.push(`timeout must be 1 to 900 seconds (got ${seconds})`);
  if (!Number.isInteger(memorySize) || memorySize < 128 || memorySize > 10_240) {
    problems.push(`memorySize must be an integer from 128 to 10240 MB (got ${memorySize})`);
  }
  // The on-failure destination is a grant (Lambda sends with the function's role): only a
  // function that declares it in functions/needs.ts may have one, and it must have one then.
  const declared = props.needs !== undefined && NEEDS[props.needs].asyncFailures === true;
  if (declared !== (props.asyncFailures !== undefined)) {
    problems.push(
      declared
        ? `needs "${props.needs}" declares asyncFailures: give it an asyncFailures queue`
        : 'asyncFailures is given but functions/needs.ts does not declare it for this function',
    );
  }
  if (problems.length > 0) throw new Error(`AppFunction ${id}: ${problems.join('; ')}`);
}
