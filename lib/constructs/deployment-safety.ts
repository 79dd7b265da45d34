import { CfnResource, Duration, type IAspect, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';

import { stageSettingsOf } from '../settings';

/** How long CloudFormation waits for a custom resource that set no time-out of its own. */
export const DEFAULT_SERVICE_TIMEOUT = Duration.minutes(15);

const isCustomResource = (type: string) =>
  type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource';

/** The raw properties of an L1 resource, before tokens are resolved. */
const rawPropertiesOf = (resource: CfnResource): Record<string, unknown> =>
  ((resource as unknown as { _cfnProperties?: Record<string, unknown> })._cfnProperties ?? {}) as Record<
    string,
    unknown
  >;

/**
 * Gives every custom resource, ours and CDK's, a service time-out: without one a handler that
 * crashed before replying holds the deployment for CloudFormation's full hour.
 */
export class CustomResourceTimeouts implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnResource) || !isCustomResource(node.cfnResourceType)) return;
    if (rawPropertiesOf(node).ServiceTimeout !== undefined) return;
    node.addPropertyOverride('ServiceTimeout', String(DEFAULT_SERVICE_TIMEOUT.toSeconds()));
  }
}

/**
 * Gives a log group of the stack to every function CDK builds without one (its custom-resource
 * providers): Lambda would create `/aws/lambda/…` itself, outside the stack, and leave it behind.
 */
export class FunctionLogGroups implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnResource) || node.cfnResourceType !== 'AWS::Lambda::Function') return;
    const loggingConfig =
      node instanceof lambda.CfnFunction ? node.loggingConfig : rawPropertiesOf(node).LoggingConfig;
    if (loggingConfig && (loggingConfig as { logGroup?: unknown; LogGroup?: unknown }).logGroup) return;
    if (loggingConfig && (loggingConfig as { LogGroup?: unknown }).LogGroup) return;
    const scope = node.node.scope ?? Stack.of(node);
    const id = `${node.node.id}Logs`;
    // Aspects may visit a node more than once; the override is not visible in its properties.
    if (scope.node.tryFindChild(id)) return;
    const stage = stageSettingsOf(node);
    const logGroup = new logs.LogGroup(scope, id, {
      retention: stage?.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: stage?.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    node.addPropertyOverride('LoggingConfig.LogGroup', logGroup.logGroupName);
  }
}
