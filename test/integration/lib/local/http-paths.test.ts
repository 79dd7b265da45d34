import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MESSAGES } from '../../../../shared/messages';
import { type BillingTestbed, startBillingTestbed } from '../../../support/billing';
import { type LocalApi, startLocalApi } from '../../../support/local-api';

/** Issue 14 §8: paths API Gateway would refuse are a 400 or a 404 locally too, never a 500. */
describe('the local HTTP adapter and odd paths', () => {
  let bed: BillingTestbed;
  let api: LocalApi;

  beforeAll(async () => {
    bed = await startBillingTestbed();
    api = await startLocalApi(bed.deps);
  });

  afterAll(async () => {
    await api.stop();
    await bed.stop();
  });

  it.each([
    ['GET', '/api/lawyers/%E0%A4%A'],
    ['GET', '/api/workflows/%ZZ/executions'],
    ['POST', '/api/workflows/%E0/toggle-scheduling'],
    ['GET', '/api/workflows/%'],
  ])('answers %s %s (a malformed percent-encoding) with a 400', async (method, path) => {
    const reply = await fetch(`${api.url}${path}`, { method });

    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual({ error: MESSAGES.request.invalid });
  });

  it.each(['/%E0', '/lawyer/%E0%A4%A', '/assets/%ZZ.js'])(
    'answers the site path %s with a 400',
    async (path) => {
      const reply = await fetch(`${api.url}${path}`);

      expect(reply.status).toBe(400);
    },
  );

  it.each([`/api/workflows/${'a'.repeat(5_000)}`, `/api/${'x/'.repeat(3_000)}`, `/${'page/'.repeat(1_000)}`])(
    'answers an over-long path with a 404',
    async (path) => {
      const reply = await fetch(`${api.url}${path}`);

      expect(reply.status).toBe(404);
    },
  );

  it('goes on serving afterwards', async () => {
    const reply = await fetch(`${api.url}/api/workflows`);

    expect(reply.status).toBe(401);
    expect(bed.app.logger.lines.filter((line) => line.includes('Erreur du serveur local'))).toEqual([]);
  });
});
