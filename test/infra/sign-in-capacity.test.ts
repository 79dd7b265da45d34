import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Deployment } from '../../lib/deployment';
import { SIGN_IN_PATHS, WAF_RATE_RULE, WAF_SIGN_IN_RULE } from '../../lib/edge-stack';
import { signInPeakPerSecond } from '../../lib/settings';
import { ROUTES, routeKey } from '../../shared/routes';
import { createEdgeDeployments } from './support';

type Resource = { readonly Type: string; readonly Properties: Record<string, unknown> };
type Throttle = { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };

const resourcesOf = (template: Template, type: string): [string, Resource][] =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);
const only = (template: Template, type: string): Resource => {
  const found = resourcesOf(template, type);
  expect(found, type).toHaveLength(1);
  return found[0]![1];
};
const apiBehaviourOf = (template: Template) => {
  const config = only(template, 'AWS::CloudFront::Distribution').Properties.DistributionConfig as {
    CacheBehaviors: { PathPattern: string; TargetOriginId: string }[];
    Origins: { Id: string; DomainName: unknown; OriginPath?: unknown }[];
  };
  const behaviour = config.CacheBehaviors.find((entry) => entry.PathPattern === '/api/*')!;
  return config.Origins.find((origin) => origin.Id === behaviour.TargetOriginId)!;
};
/** The logical id of the secret a `{{resolve:secretsmanager:…}}` value reads, if it reads one. */
const secretReadBy = (value: unknown): string | undefined => {
  const text = JSON.stringify(value);
  if (!text.includes('{{resolve:secretsmanager:')) return undefined;
  return /"Ref":"([^"]+)"/.exec(text)?.[1];
};

/**
 * Sign-in for 10,000 firms on AWS: the sign-in routes sized for the morning peak, one address held
 * far below them by the WAF, and a flood sent to the API's own address kept from spending them.
 */
describe('sign-in capacity', () => {
  const DOMAIN = 'app.cabinet.example';
  let byDefault: Deployment;
  let withEdge: Deployment;
  let removeSite: () => Promise<void>;

  beforeAll(async () => {
    ({ byDefault, withEdge, remove: removeSite } = await createEdgeDeployments(DOMAIN));
  });

  afterAll(async () => {
    await removeSite();
  });

  const signInThrottles = (template: Template) => {
    const stage = only(template, 'AWS::ApiGatewayV2::Stage').Properties as {
      RouteSettings: Record<string, Throttle>;
    };
    return [ROUTES.verifyLicense, ROUTES.passkeyAuthenticationOptions, ROUTES.verifySecondFactor].map(
      (route) => stage.RouteSettings[routeKey(route)]!,
    );
  };

  it('sizes every sign-in call for three times the morning peak of 10,000 firms', () => {
    // The model: 33 sign-ins a second in the busiest minute (docs/security-and-sessions.md).
    expect(signInPeakPerSecond()).toBeCloseTo(33.3, 1);
    for (const throttle of signInThrottles(Template.fromStack(byDefault.stack))) {
      expect(throttle.ThrottlingRateLimit).toBeGreaterThanOrEqual(3 * signInPeakPerSecond());
      expect(throttle.ThrottlingBurstLimit).toBeGreaterThanOrEqual(2 * throttle.ThrottlingRateLimit);
    }
  });

  it('holds one address to the sign-in calls at the edge, far below what the routes take, when the WAF is on', () => {
    const acl = only(Template.fromStack(withEdge.edge!), 'AWS::WAFv2::WebACL').Properties as {
      Rules: {
        Name: string;
        Priority: number;
        Action: unknown;
        Statement: {
          RateBasedStatement: {
            Limit: number;
            AggregateKeyType: string;
            EvaluationWindowSec: number;
            ScopeDownStatement?: {
              OrStatement: { Statements: { ByteMatchStatement: Record<string, unknown> }[] };
            };
          };
        };
      }[];
    };
    const rule = acl.Rules.find((entry) => entry.Name === WAF_SIGN_IN_RULE)!;
    expect(rule.Action).toEqual({ Block: {} });
    // Before the general limit, so that a sign-in flood is stopped by its own, lower one.
    expect(rule.Priority).toBeLessThan(acl.Rules.find((entry) => entry.Name === WAF_RATE_RULE)!.Priority);
    const { Limit, AggregateKeyType, EvaluationWindowSec, ScopeDownStatement } =
      rule.Statement.RateBasedStatement;
    expect(AggregateKeyType).toBe('IP');
    expect(EvaluationWindowSec).toBe(300);
    const paths = ScopeDownStatement!.OrStatement.Statements.map(({ ByteMatchStatement }) => [
      ByteMatchStatement.SearchString,
      ByteMatchStatement.PositionalConstraint,
    ]);
    expect(paths).toEqual(SIGN_IN_PATHS.map(({ path, match }) => [path, match]));
    expect(paths.map(([path]) => path)).toEqual(
      expect.arrayContaining([ROUTES.verifyLicense.path, ROUTES.requestPortalLink.path]),
    );
    // One address at its limit sends a hundredth of what the sign-in route takes, at most.
    const perAddressPerSecond = Limit / EvaluationWindowSec;
    for (const throttle of signInThrottles(Template.fromStack(withEdge.stack))) {
      expect(perAddressPerSecond * 100).toBeLessThanOrEqual(throttle.ThrottlingRateLimit);
    }
  });

  it('switches the execute-api address off with a custom domain: CloudFront reaches the API on its own domain under a secret path', () => {
    const template = Template.fromStack(withEdge.stack);
    const api = only(template, 'AWS::ApiGatewayV2::Api');
    expect(api.Properties.DisableExecuteApiEndpoint).toBe(true);
    const domain = only(template, 'AWS::ApiGatewayV2::DomainName').Properties as {
      DomainName: string;
      DomainNameConfigurations: { EndpointType: string; SecurityPolicy: string; CertificateArn: unknown }[];
    };
    expect(domain.DomainName).toBe(`api.${DOMAIN}`);
    expect(domain.DomainNameConfigurations).toEqual([
      expect.objectContaining({ EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }),
    ]);
    // Its certificate lives in the stack's region, DNS-validated as the site's is.
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: `api.${DOMAIN}`,
      ValidationMethod: 'DNS',
    });
    // Mapped under a key read from a secret at deployment, never written in the template ...
    const mapping = only(template, 'AWS::ApiGatewayV2::ApiMapping').Properties;
    const keySecret = secretReadBy(mapping.ApiMappingKey);
    expect(keySecret).toMatch(/^OriginVerifyPathKey/);
    // ... the same key CloudFront puts before every /api/* path, on the API's own domain.
    const origin = apiBehaviourOf(template);
    expect(origin.DomainName).toBe(`api.${DOMAIN}`);
    expect(JSON.stringify(origin.OriginPath)).toMatch(/^\{"Fn::Join":\["",\["\/\{\{resolve:secretsmanager:/);
    expect(secretReadBy(origin.OriginPath)).toBe(keySecret);
    expect(template.toJSON().Outputs.ApiDomainTarget.Value).toMatchObject({
      'Fn::GetAtt': [expect.any(String), 'RegionalDomainName'],
    });
  });

  it('keeps the execute-api address without a custom domain (the residual risk the runbook names)', () => {
    const template = Template.fromStack(byDefault.stack);
    expect(only(template, 'AWS::ApiGatewayV2::Api').Properties.DisableExecuteApiEndpoint).toBe(false);
    expect(resourcesOf(template, 'AWS::ApiGatewayV2::DomainName')).toEqual([]);
    expect(JSON.stringify(apiBehaviourOf(template).DomainName)).toContain('execute-api');
  });
});
