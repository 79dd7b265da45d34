import type { App, Environment } from 'aws-cdk-lib';

import { AssistantJuridiqueEdgeStack, EDGE_REGION } from './edge-stack';
import type { StageSettings } from './settings';
import { AssistantJuridiqueStack } from './stack';

export interface Deployment {
  readonly stack: AssistantJuridiqueStack;
  /** Only when the stage asks for a custom domain or a WAF. */
  readonly edge?: AssistantJuridiqueEdgeStack;
}

/**
 * The stacks of one stage, as `bin/app.ts` and the infra tests build them: the stage's stack in
 * its region and, when the stage has a custom domain or a WAF, its companion stack in us-east-1
 * (`<stack name>-edge`), which `cdk deploy --all` deploys first.
 */
export function buildDeployment(
  app: App,
  settings: StageSettings,
  options: { readonly siteDir: string; readonly account?: string },
): Deployment {
  const env = (region: string): Environment => ({ account: options.account, region });
  const edge =
    settings.customDomain || settings.waf
      ? new AssistantJuridiqueEdgeStack(app, `${settings.stackName}-edge`, {
          stackName: `${settings.stackName}-edge`,
          description: `Assistant IA pour cabinets d’avocats (${settings.stage}) : certificat et WAF de CloudFront (us-east-1)`,
          settings,
          env: env(EDGE_REGION),
          terminationProtection: settings.stage === 'prod',
        })
      : undefined;
  const stack = new AssistantJuridiqueStack(app, settings.stackName, {
    stackName: settings.stackName,
    description: `Assistant IA pour cabinets d’avocats (${settings.stage}) : site, API, données et clés du serveur`,
    siteDir: options.siteDir,
    settings,
    env: env(settings.region),
    terminationProtection: settings.stage === 'prod',
    ...(edge ? { edge: { certificate: edge.certificate, webAclArn: edge.webAclArn } } : {}),
  });
  // Also implied by the cross-region references; said here so that the order does not depend on
  // which values happen to be referenced.
  if (edge) stack.addStackDependency(edge, 'the certificate and the web ACL of CloudFront');
  return edge ? { stack, edge } : { stack };
}
