import { type App, Aspects, type Environment, type Stack } from 'aws-cdk-lib';

import { CustomResourceTimeouts, FunctionLogGroups } from './constructs/deployment-safety';
import { AssistantJuridiqueEdgeAlarmsStack } from './edge-alarms-stack';
import { AssistantJuridiqueEdgeStack, EDGE_REGION } from './edge-stack';
import { AssistantJuridiqueRecoveryStack } from './recovery-stack';
import type { StageSettings } from './settings';
import { AssistantJuridiqueStack } from './stack';

export interface Deployment {
  readonly stack: AssistantJuridiqueStack;
  /** Only when the stage asks for a custom domain or a WAF. */
  readonly edge?: AssistantJuridiqueEdgeStack;
  /** The copy vault of the table's backups, in the keys' replica region (prod). */
  readonly recovery?: AssistantJuridiqueRecoveryStack;
  /** CloudFront's alarms, in us-east-1 where its metrics are (prod). */
  readonly edgeAlarms?: AssistantJuridiqueEdgeAlarmsStack;
}

/**
 * The stacks of one stage, as `bin/app.ts` and the infra tests build them, in the order
 * `cdk deploy --all` deploys them: the recovery vault, the edge stack (certificate, WAF), the
 * stage's stack, then CloudFront's alarms, which read the distribution the stage's stack made.
 */
export function buildDeployment(
  app: App,
  settings: StageSettings,
  options: { readonly siteDir: string; readonly account?: string },
): Deployment {
  const env = (region: string): Environment => ({ account: options.account, region });
  const prod = settings.stage === 'prod';
  const recovery =
    settings.backup && settings.keysReplicaRegion
      ? new AssistantJuridiqueRecoveryStack(app, `${settings.stackName}-recovery`, {
          stackName: `${settings.stackName}-recovery`,
          description: `Assistant IA pour cabinets d’avocats (${settings.stage}) : copies des sauvegardes de la table`,
          settings,
          env: env(settings.keysReplicaRegion),
          terminationProtection: prod,
        })
      : undefined;
  const edge =
    settings.customDomain || settings.waf
      ? new AssistantJuridiqueEdgeStack(app, `${settings.stackName}-edge`, {
          stackName: `${settings.stackName}-edge`,
          description: `Assistant IA pour cabinets d’avocats (${settings.stage}) : certificat et WAF de CloudFront (us-east-1)`,
          settings,
          env: env(EDGE_REGION),
          terminationProtection: prod,
        })
      : undefined;
  const stack = new AssistantJuridiqueStack(app, settings.stackName, {
    stackName: settings.stackName,
    description: `Assistant IA pour cabinets d’avocats (${settings.stage}) : site, API, données et clés du serveur`,
    siteDir: options.siteDir,
    settings,
    env: env(settings.region),
    terminationProtection: prod,
    exportsAcrossRegions: settings.edgeAlarms,
    ...(edge ? { edge: { certificate: edge.certificate, webAclArn: edge.webAclArn } } : {}),
  });
  // Also implied by the cross-region references; said here so that the order does not depend on
  // which values happen to be referenced.
  if (edge) stack.addStackDependency(edge, 'the certificate and the web ACL of CloudFront');
  if (recovery) stack.addStackDependency(recovery, 'the copy vault its backup plan names');
  const edgeAlarms = settings.edgeAlarms
    ? new AssistantJuridiqueEdgeAlarmsStack(app, `${settings.stackName}-edge-alarms`, {
        stackName: `${settings.stackName}-edge-alarms`,
        description: `Assistant IA pour cabinets d’avocats (${settings.stage}) : alarmes CloudFront (us-east-1)`,
        settings,
        env: env(EDGE_REGION),
        distributionId: stack.site.distribution.distributionId,
      })
    : undefined;
  if (edgeAlarms) edgeAlarms.addStackDependency(stack, 'the distribution its alarms watch');

  const stacks: Stack[] = [
    stack,
    ...[recovery, edge, edgeAlarms].filter((s): s is NonNullable<typeof s> => !!s),
  ];
  for (const each of stacks) {
    Aspects.of(each).add(new CustomResourceTimeouts());
    Aspects.of(each).add(new FunctionLogGroups());
  }
  return {
    stack,
    ...(edge ? { edge } : {}),
    ...(recovery ? { recovery } : {}),
    ...(edgeAlarms ? { edgeAlarms } : {}),
  };
}
