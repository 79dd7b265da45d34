import { afterEach, describe, expect, it } from 'vitest';

import { EXAMPLE_LEGAL_DETAILS } from '../../shared/legal-details';
import { callApi, configureApi } from '../../web/src/api/api-client';
import { ApiHttpError, ApiNetworkError, ApiReplyError, ApiRequestError } from '../../web/src/api/api-errors';
import { loadRuntimeConfig } from '../../web/src/config/runtime-config';
import { jsonResponse, mockNetwork } from './support/fetch-mock';
import { storeSessionOf } from './support/sessions';

afterEach(() => {
  configureApi({ apiBaseUrl: '' });
});

describe('API client', () => {
  it("calls the route's method and path with the session's bearer token", async () => {
    // Arrange
    const network = mockNetwork(() => jsonResponse(200, { success: true }));
    const session = storeSessionOf('admin');

    // Act
    const reply = await callApi('signOut');

    // Assert
    expect(reply).toEqual({ success: true });
    expect(network.requests).toEqual([
      expect.objectContaining({
        url: '/api/sign-out',
        method: 'POST',
        headers: expect.objectContaining({ authorization: `Bearer ${session.token}` }),
      }),
    ]);
  });

  it('sends no token on a public route', async () => {
    // Arrange
    const network = mockNetwork(() => jsonResponse(200, { valid: false }));
    storeSessionOf('admin');

    // Act
    await callApi('verifyLicense', { body: { licenseKey: 'NOTARY-ABCD1234' } });

    // Assert
    expect(network.requests[0]?.headers.authorization).toBeUndefined();
    expect(network.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('fills path parameters and prefixes the configured API origin', async () => {
    // Arrange
    const network = mockNetwork(() => jsonResponse(200, { success: true }));
    storeSessionOf('admin');
    configureApi({ apiBaseUrl: 'https://api.cabinet.example' });

    // Act
    await callApi('deleteFolder', { params: { id: 'dossier 1' } });

    // Assert
    expect(network.requests[0]).toMatchObject({
      url: 'https://api.cabinet.example/api/folders/dossier%201',
      method: 'DELETE',
    });
  });

  it('refuses a body that does not match the request schema, without sending it', async () => {
    // Arrange
    const network = mockNetwork();

    // Act
    const failure = await callApi('verifyLicense', { body: { licenseKey: 'abc' } }).catch(
      (error: unknown) => error,
    );

    // Assert
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as Error).message).toBe('La clé de licence est requise');
    expect(network.requests).toHaveLength(0);
  });

  it("rejects an error status with the server's French message", async () => {
    // Arrange
    mockNetwork(() => jsonResponse(403, { error: 'Accès refusé' }));
    storeSessionOf('lawyer');

    // Act
    const failure = await callApi('listFolders').catch((error: unknown) => error);

    // Assert
    expect(failure).toBeInstanceOf(ApiHttpError);
    expect(failure).toMatchObject({ status: 403, message: 'Accès refusé', serverMessage: 'Accès refusé' });
  });

  it('rejects a reply that does not match the reply schema', async () => {
    // Arrange
    mockNetwork(() => jsonResponse(200, { success: 'oui' }));
    storeSessionOf('admin');

    // Act
    const failure = await callApi('signOut').catch((error: unknown) => error);

    // Assert
    expect(failure).toBeInstanceOf(ApiReplyError);
  });

  it('rejects with a network error when the server cannot be reached', async () => {
    // Arrange
    mockNetwork(() => Promise.reject(new TypeError('Failed to fetch')));

    // Act
    const failure = await callApi('verifyLicense', { body: { licenseKey: 'NOTARY-ABCD1234' } }).catch(
      (error: unknown) => error,
    );

    // Assert
    expect(failure).toBeInstanceOf(ApiNetworkError);
  });
});

describe('runtime configuration', () => {
  /** index.html's data block, as the local server and the deployment fill it. */
  function writeInlineSettings(text: string) {
    const block = document.createElement('script');
    block.id = 'runtime-config';
    block.type = 'application/json';
    block.textContent = text;
    document.head.append(block);
    return () => block.remove();
  }

  it('reads the settings written into index.html, without a request', async () => {
    // Arrange
    const network = mockNetwork(() => jsonResponse(200, { apiBaseUrl: 'https://ailleurs.example' }));
    const remove = writeInlineSettings(
      JSON.stringify({
        apiBaseUrl: 'https://api.cabinet.example/',
        workflowWebhookBaseUrl: 'https://n8n.example',
      }),
    );

    // Act
    const config = await loadRuntimeConfig().finally(remove);

    // Assert
    expect(config).toEqual({
      apiBaseUrl: 'https://api.cabinet.example',
      workflowWebhookBaseUrl: 'https://n8n.example',
      hostingRegion: 'eu-west-3',
      legal: EXAMPLE_LEGAL_DETAILS,
    });
    expect(network.requests).toEqual([]);
  });

  it.each([
    ['empty (the Vite dev server)', ''],
    ['not JSON', '{apiBaseUrl'],
    ['not settings', '["https://api.cabinet.example"]'],
  ])('asks /config.json when the block of index.html is %s', async (_case, text) => {
    // Arrange
    const network = mockNetwork(() => jsonResponse(200, { apiBaseUrl: 'https://api.cabinet.example' }));
    const remove = writeInlineSettings(text);

    // Act
    const config = await loadRuntimeConfig().finally(remove);

    // Assert
    expect(config.apiBaseUrl).toBe('https://api.cabinet.example');
    expect(network.requests.map((request) => request.url)).toEqual(['/config.json']);
  });

  it('reads the API origin from /config.json', async () => {
    // Arrange
    const network = mockNetwork(() => jsonResponse(200, { apiBaseUrl: 'https://api.cabinet.example/' }));

    // Act
    const config = await loadRuntimeConfig();

    // Assert
    expect(config).toEqual({
      apiBaseUrl: 'https://api.cabinet.example',
      workflowWebhookBaseUrl: '',
      hostingRegion: 'eu-west-3',
      legal: EXAMPLE_LEGAL_DETAILS,
    });
    expect(network.requests[0]?.url).toBe('/config.json');
  });

  it("reads the stage's hosting region, and keeps the default for a value that is not a region", async () => {
    // Arrange
    mockNetwork(() => jsonResponse(200, { hostingRegion: 'eu-central-1' }));

    // Act
    const config = await loadRuntimeConfig();

    // Assert
    expect(config.hostingRegion).toBe('eu-central-1');
    mockNetwork(() => jsonResponse(200, { hostingRegion: '<script>' }));
    expect((await loadRuntimeConfig()).hostingRegion).toBe('eu-west-3');
  });

  it.each([
    ['is missing', () => new Response('Not found', { status: 404 })],
    ['is not JSON', () => new Response('<html></html>', { status: 200 })],
    ['cannot be fetched', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('falls back to the same origin when /config.json %s', async (_case, respond) => {
    // Arrange
    mockNetwork(respond);

    // Act
    const config = await loadRuntimeConfig();

    // Assert
    expect(config).toEqual({
      apiBaseUrl: '',
      workflowWebhookBaseUrl: '',
      hostingRegion: 'eu-west-3',
      legal: EXAMPLE_LEGAL_DETAILS,
    });
  });
});
