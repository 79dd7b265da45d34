import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';

import { ROUTES } from '../shared/routes';
import type { StageSettings } from './settings';

/** CloudFront takes certificates and web ACLs from us-east-1 only. */
export const EDGE_REGION = 'us-east-1';

/** The web ACL's metric and rule names, for its CloudWatch metrics and sampled requests. */
export const WAF_RATE_RULE = 'LimiteParAdresse';
export const WAF_SIGN_IN_RULE = 'LimiteConnexionParAdresse';

/**
 * The sign-in calls, by path: the licence key, every second-factor call, the portal link. Their
 * route throttles are shared by every firm, so one address is held far below them.
 */
export const SIGN_IN_PATHS = [
  { path: ROUTES.verifyLicense.path, match: 'EXACTLY' },
  { path: '/api/second-factor/', match: 'STARTS_WITH' },
  { path: ROUTES.secondFactorStatus.path, match: 'EXACTLY' },
  { path: ROUTES.requestPortalLink.path, match: 'EXACTLY' },
] as const;

export interface EdgeStackProps extends StackProps {
  /** The stage's settings: its custom domain and WAF settings decide what this stack holds. */
  readonly settings: StageSettings;
}

/**
 * The stage's us-east-1 companion, only with a custom domain or a WAF: CloudFront takes
 * certificates and web ACLs from that region alone. A WAF holds one client address to
 * `wafSignInRateLimit` sign-in calls and `wafRateLimit` requests in 5 minutes. Deployed before the stage's stack.
 */
export class AssistantJuridiqueEdgeStack extends Stack {
  readonly certificate?: acm.Certificate;
  readonly webAclArn?: string;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, { ...props, crossRegionReferences: true });
    const { settings } = props;
    if (this.region !== EDGE_REGION) {
      throw new Error(`AssistantJuridiqueEdgeStack: must be deployed in ${EDGE_REGION} (got ${this.region})`);
    }
    if (!settings.customDomain && !settings.waf) {
      throw new Error('AssistantJuridiqueEdgeStack: the stage asks for neither a custom domain nor a WAF');
    }

    if (settings.customDomain) {
      this.certificate = new acm.Certificate(this, 'Certificate', {
        domainName: settings.customDomain.domainName,
        // No hosted zone is assumed (the domain may be managed anywhere): CloudFormation waits
        // until the CNAME that ACM asks for is in the domain's DNS.
        validation: acm.CertificateValidation.fromDns(),
      });
      new CfnOutput(this, 'CertificateArn', {
        description: 'Le certificat ACM du domaine (validation DNS : docs/operations.md §10)',
        value: this.certificate.certificateArn,
      });
    }

    if (settings.waf) {
      const webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
        // CloudFormation takes ASCII only here.
        description: `Rate limit per client address, site ${settings.stackName}`,
        scope: 'CLOUDFRONT',
        defaultAction: { allow: {} },
        visibilityConfig: {
          cloudWatchMetricsEnabled: true,
          metricName: `${settings.stackName}-waf`,
          sampledRequestsEnabled: true,
        },
        rules: [
          {
            name: WAF_SIGN_IN_RULE,
            priority: 0,
            // Over its sign-in limit an address gets 403 on those calls only, until its rate falls.
            action: { block: {} },
            statement: {
              rateBasedStatement: {
                limit: settings.wafSignInRateLimit,
                aggregateKeyType: 'IP',
                evaluationWindowSec: 300,
                scopeDownStatement: {
                  orStatement: {
                    statements: SIGN_IN_PATHS.map(({ path, match }) => ({
                      byteMatchStatement: {
                        fieldToMatch: { uriPath: {} },
                        positionalConstraint: match,
                        searchString: path,
                        textTransformations: [{ priority: 0, type: 'NONE' }],
                      },
                    })),
                  },
                },
              },
            },
            visibilityConfig: {
              cloudWatchMetricsEnabled: true,
              metricName: `${settings.stackName}-${WAF_SIGN_IN_RULE}`,
              sampledRequestsEnabled: true,
            },
          },
          {
            name: WAF_RATE_RULE,
            priority: 1,
            // A client address over the limit gets 403 until its rate falls back under it.
            action: { block: {} },
            statement: {
              rateBasedStatement: {
                limit: settings.wafRateLimit,
                aggregateKeyType: 'IP',
                evaluationWindowSec: 300,
              },
            },
            visibilityConfig: {
              cloudWatchMetricsEnabled: true,
              metricName: `${settings.stackName}-${WAF_RATE_RULE}`,
              sampledRequestsEnabled: true,
            },
          },
        ],
      });
      this.webAclArn = webAcl.attrArn;
      new CfnOutput(this, 'WebAclArn', {
        description: 'Le web ACL WAF devant CloudFront (limite de débit par adresse)',
        value: webAcl.attrArn,
      });
    }
  }
}
