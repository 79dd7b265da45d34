import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import { deliverWebhook } from '../../../../functions/adapters/scheduling/webhook-delivery';
import { generateWebhookSecret } from '../../../../functions/adapters/scheduling/webhook-signature';
import { receiversClosedAfterEach } from '../../../support/receiver';

/**
 * The n8n Code node snippets of docs/webhook-signature.md, run as n8n runs them (an async function
 * body with `$input`, `$env`, `$getWorkflowStaticData`, `$` and `this.helpers`) against calls our
 * delivery really sent: the documentation cannot drift from the signing code unnoticed.
 */

const DOC = readFileSync(new URL('../../../../docs/webhook-signature.md', import.meta.url), 'utf8');
const SECRET = generateWebhookSecret();
const BODY = { workflowName: 'Relance Dossier Client', trigger: 'scheduled', note: 'pièces manquantes' };

function snippet(marker: string): string {
  const match = new RegExp(`<!-- n8n-code-node:${marker} -->\\s*\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(DOC);
  if (!match?.[1]) throw new Error(`No snippet marked ${marker} in docs/webhook-signature.md`);
  return match[1];
}

type N8nItem = { json: Record<string, unknown> };
type CodeNode = (this: unknown, ...context: unknown[]) => Promise<N8nItem[]>;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...parameters: string[]
) => CodeNode;

interface Workflow {
  readonly staticData: Record<string, unknown>;
  verify(headers: IncomingHttpHeaders, rawBody: Buffer, secret?: string): Promise<N8nItem[]>;
  markHandled(verified: N8nItem[]): Promise<N8nItem[]>;
}

/** One n8n workflow: Webhook (Raw Body) -> verifying Code node -> ... -> marking Code node. */
function workflow(): Workflow {
  const staticData: Record<string, unknown> = {};
  const require = createRequire(import.meta.url);
  const verifyNode = new AsyncFunction(
    '$input',
    '$env',
    '$getWorkflowStaticData',
    'require',
    snippet('verify'),
  );
  const markNode = new AsyncFunction(
    '$input',
    '$',
    '$getWorkflowStaticData',
    'require',
    snippet('mark-handled'),
  );
  const getWorkflowStaticData = (type: string) => {
    expect(type).toBe('global');
    return staticData;
  };
  return {
    staticData,
    verify(headers, rawBody, secret = SECRET) {
      const webhookItem: N8nItem = { json: { headers, body: JSON.parse(rawBody.toString('utf8')) } };
      const helpers = {
        getBinaryDataBuffer: async (itemIndex: number, property: string) => {
          expect([itemIndex, property]).toEqual([0, 'data']);
          return rawBody;
        },
      };
      const $input = { first: () => webhookItem, all: () => [webhookItem] };
      return verifyNode.call(
        { helpers },
        $input,
        { WEBHOOK_SIGNING_SECRET: secret },
        getWorkflowStaticData,
        require,
      );
    },
    markHandled(verified) {
      const $input = { all: () => verified, first: () => verified[0] };
      const $ = (name: string) => {
        expect(name).toBe('Code');
        return { first: () => verified[0] };
      };
      return markNode.call({}, $input, $, getWorkflowStaticData, require);
    },
  };
}

const receiver = receiversClosedAfterEach();

/** One real signed call, as n8n's Webhook node receives it. */
async function signedCall(options: { messageId?: string; timestamp?: number } = {}) {
  const n8n = await receiver();
  const outcome = await deliverWebhook({
    url: `${n8n.origin}/webhook/relance`,
    body: BODY,
    messageId: options.messageId ?? `run_${randomUUID()}`,
    timestamp: options.timestamp,
    secret: SECRET,
    timeoutMs: 2_000,
    allowPrivate: true,
  });
  expect(outcome.ok).toBe(true);
  const [call] = n8n.calls;
  if (!call) throw new Error('The receiver got no call');
  return call;
}

describe('the n8n snippets of docs/webhook-signature.md', () => {
  it('let a genuine call through with its body and id', async () => {
    const call = await signedCall({ messageId: 'wf-1:2025-05-21T08:00:00.000Z' });

    const items = await workflow().verify(call.headers, call.body);

    expect(items).toEqual([{ json: { ...BODY, webhookId: 'wf-1:2025-05-21T08:00:00.000Z' } }]);
  });

  it('refuse a call whose body was changed', async () => {
    const call = await signedCall();
    const tampered = Buffer.from(call.body.toString('utf8').replace('Relance', 'Virement'), 'utf8');

    await expect(workflow().verify(call.headers, tampered)).rejects.toThrow('signature invalide');
  });

  it('refuse a call signed with another secret', async () => {
    const call = await signedCall();

    await expect(workflow().verify(call.headers, call.body, generateWebhookSecret())).rejects.toThrow(
      'signature invalide',
    );
  });

  it('refuse a call older than five minutes', async () => {
    const call = await signedCall({ timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });

    await expect(workflow().verify(call.headers, call.body)).rejects.toThrow('horodatage hors tolérance');
  });

  it('refuse a call without signature headers', async () => {
    const call = await signedCall();
    const { 'webhook-signature': _dropped, ...unsigned } = call.headers;

    await expect(workflow().verify(unsigned, call.body)).rejects.toThrow('Appel non signé');
  });

  it('drop the retry of a run already handled, and only that one', async () => {
    const n8n = workflow();
    const first = await signedCall({ messageId: 'wf-1:2025-05-21T08:00:00.000Z' });
    const retry = await signedCall({ messageId: 'wf-1:2025-05-21T08:00:00.000Z' });
    const nextRun = await signedCall({ messageId: 'wf-1:2025-05-21T08:02:00.000Z' });

    const handled = await n8n.markHandled(await n8n.verify(first.headers, first.body));
    const retried = await n8n.verify(retry.headers, retry.body);
    const next = await n8n.verify(nextRun.headers, nextRun.body);

    expect(handled).toHaveLength(1);
    expect(retried).toEqual([]);
    expect(next).toHaveLength(1);
    expect(Object.keys(n8n.staticData.handledWebhookIds as object)).toEqual([
      'wf-1:2025-05-21T08:00:00.000Z',
    ]);
  });
});
