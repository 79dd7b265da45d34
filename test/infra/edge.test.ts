import { type App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ENVIRONMENT } from '../../functions/runtime/environment';
import type { Deployment } from '../../lib/deployment';
import { EDGE_REGION, WAF_RATE_RULE, WAF_SIGN_IN_RULE } from '../../lib/edge-stack';
import { createEdgeDeployments, settingsFrom } from './support';

type Resource = { readonly Type: string; readonly Properties: Record<string, unknown> };

/**
 * The custom domain (ACM certificate) and the WAF (rate-based rule) are off by
 * default; asked for, they live in the stage's us-east-1 edge stack, and the distribution answers
 * to the domain with TLS 1.2 at least, behind the web ACL.
 */
describe('custom domain and WAF', () => {
  const DOMAIN = 'app.cabinet.example';
  let byDefault: Deployment;
  let withEdge: Deployment;
  let removeSite: () => Promise<void>;

  beforeAll(async () => {
    ({ byDefault, withEdge, remove: removeSite } = await createEdgeDeployments(DOMAIN));
    for (const stack of [withEdge.stack, withEdge.edge!]) {
      Aspects.of(stack).add(new AwsSolutionsChecks({ verbose: true }));
      Aspects.of(stack).add(new ServerlessChecks({ verbose: true }));
    }
  });

  afterAll(async () => {
    await removeSite();
  });

  const resourcesOf = (template: Template, type: string): Resource[] =>
    Object.values(template.toJSON().Resources as Record<string, Resource>).filter((r) => r.Type === type);
  const distributionConfigOf = (template: Template) =>
    resourcesOf(template, 'AWS::CloudFront::Distribution')[0]!.Properties.DistributionConfig as Record<
      string,
      unknown
    >;

  it('builds no edge stack, no certificate and no web ACL by default', () => {
    expect(byDefault.edge).toBeUndefined();
    const config = distributionConfigOf(Template.fromStack(byDefault.stack));
    expect(config.Aliases).toBeUndefined();
    expect(config.WebACLId).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
    expect(Template.fromStack(byDefault.stack).toJSON().Outputs.SiteUrl.Value).toMatchObject({
      'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [expect.any(String), 'DomainName'] }]],
    });
  });

  it('puts the certificate and the web ACL in a us-east-1 stack of the stage, deployed first', () => {
    const edge = withEdge.edge!;
    expect(edge.region).toBe(EDGE_REGION);
    expect(edge.stackName).toBe('AssistantJuridique-prod-edge');
    expect(withEdge.stack.dependencies).toContain(edge);
    Template.fromStack(edge).hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: DOMAIN,
      ValidationMethod: 'DNS',
    });
  });

  it('blocks a client address over the stage’s rate, per address, in front of CloudFront', () => {
    const acls = resourcesOf(Template.fromStack(withEdge.edge!), 'AWS::WAFv2::WebACL');
    expect(acls).toHaveLength(1);
    expect(acls[0]!.Properties).toMatchObject({
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
    });
    // The sign-in calls' own rule comes first (sign-in-capacity.test.ts).
    const rules = acls[0]!.Properties.Rules as { Name: string }[];
    expect(rules.map((rule) => rule.Name)).toEqual([WAF_SIGN_IN_RULE, WAF_RATE_RULE]);
    expect(acls[0]!.Properties).toMatchObject({
      Rules: [
        {},
        {
          Name: WAF_RATE_RULE,
          Action: { Block: {} },
          Statement: {
            RateBasedStatement: { Limit: 2000, AggregateKeyType: 'IP', EvaluationWindowSec: 300 },
          },
          VisibilityConfig: { CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true },
        },
      ],
    });
    expect(settingsFrom({ mailFrom: 'a@b.example', waf: 'true' }).wafRateLimit).toBe(500);
  });

  it('serves the domain with its certificate, TLS 1.2 at least, behind the web ACL', () => {
    const config = distributionConfigOf(Template.fromStack(withEdge.stack));
    expect(config.Aliases).toEqual([DOMAIN]);
    // Both read in this region from the edge stack's exports (CDK's cross-region references).
    const fromEdge = (value: unknown) =>
      (value as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][1].startsWith('/cdk/exports/');
    const certificate = config.ViewerCertificate as Record<string, unknown>;
    expect(certificate).toMatchObject({
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    expect(fromEdge(certificate.AcmCertificateArn)).toBe(true);
    expect(fromEdge(config.WebACLId)).toBe(true);
    const exported = resourcesOf(Template.fromStack(withEdge.edge!), 'Custom::CrossRegionExportWriter');
    expect(JSON.stringify(exported[0]?.Properties)).toContain('"WebAcl","Arn"');
  });

  it('makes the domain the site’s address: output, Stripe return links, passkeys’ relying party', () => {
    const template = Template.fromStack(withEdge.stack);
    expect(template.toJSON().Outputs.SiteUrl.Value).toBe(`https://${DOMAIN}`);
    expect(template.toJSON().Outputs.DistributionDomainName).toHaveProperty('Value');
    const variables = resourcesOf(template, 'AWS::Lambda::Function').flatMap((fn) =>
      Object.entries(
        (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {},
      ),
    );
    const siteAddresses = variables.filter(
      ([name]) => name === ENVIRONMENT.publicBaseUrl || name === ENVIRONMENT.siteUrl,
    );
    expect(siteAddresses.length).toBeGreaterThan(0);
    for (const [, value] of siteAddresses) expect(value).toBe(`https://${DOMAIN}`);
  });

  it('refuses a domain that is not a host name, naming the flag', () => {
    expect(() => settingsFrom({ mailFrom: 'a@b.example', domainName: 'https://app.example/' })).toThrow(
      /-c domainName must be a host name/,
    );
    expect(() => settingsFrom({ mailFrom: 'a@b.example', waf: 'yes' })).toThrow(
      /-c waf must be true or false/,
    );
  });

  it('leaves no unsuppressed cdk-nag finding in either stack, and no suppression left for TLS or WAF', async () => {
    for (const stack of [withEdge.stack, withEdge.edge!]) {
      const annotations = Annotations.fromStack(stack);
      const found = [
        ...annotations.findError('*', Match.stringLikeRegexp('^(AwsSolutions|Serverless)-.*')),
        ...annotations.findWarning('*', Match.stringLikeRegexp('^(AwsSolutions|Serverless)-.*')),
      ].map((message) => `${message.id}: ${String(message.entry.data).split(':')[0]}`);
      expect(found, stack.stackName).toEqual([]);
    }
    // The distribution's TLS and WAF checks pass on their own once both are on.
    const outdir = (withEdge.stack.node.root as App).outdir;
    const { readdir, readFile } = await import('node:fs/promises');
    const reports = (await readdir(outdir)).filter((file) => file.endsWith('NagReport.csv'));
    // cdk-nag names its reports <pack>-<stage path>-NagReport.csv, one per stack and pack.
    expect(reports.sort()).toEqual([
      'AwsSolutions--AssistantJuridique-prod-NagReport.csv',
      'AwsSolutions--AssistantJuridique-prod-edge-NagReport.csv',
      'Serverless--AssistantJuridique-prod-NagReport.csv',
      'Serverless--AssistantJuridique-prod-edge-NagReport.csv',
    ]);
    const text = await readFile(`${outdir}/AwsSolutions--AssistantJuridique-prod-NagReport.csv`, 'utf8');
    expect(text).not.toMatch(/"AwsSolutions-CFR4","[^"]*Distribution[^"]*","Suppressed"/);
    expect(text).not.toMatch(/"AwsSolutions-CFR2","[^"]*Distribution[^"]*","Suppressed"/);
    expect(text).toMatch(/"AwsSolutions-CFR4","[^"]*Distribution[^"]*","Compliant"/);
  });
});
