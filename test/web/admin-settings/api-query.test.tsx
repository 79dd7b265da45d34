import { describe, expect, it } from 'vitest';

import { callApi } from '../../../web/src/api/api-client';
import { jsonResponse, mockNetwork } from '../support/fetch-mock';
import { storeSessionOf } from '../support/sessions';

describe('API client query strings (GET /api/audit pages)', () => {
  it('appends the query parameters, encoded, and leaves the undefined ones out', async () => {
    // Arrange
    const network = mockNetwork(() => jsonResponse(200, { entries: [], nextCursor: null }));
    storeSessionOf('admin');

    // Act
    await callApi('listAudit', {
      query: { limit: '20', cursor: 'eyJwayI6IkFVRElUIn0=&x', extra: undefined },
    });

    // Assert
    expect(network.requests.map((request) => request.url)).toEqual([
      '/api/audit?limit=20&cursor=eyJwayI6IkFVRElUIn0%3D%26x',
    ]);
  });

  it('adds no question mark when there is no query or every value is undefined', async () => {
    // Arrange
    const network = mockNetwork(() => jsonResponse(200, { entries: [], nextCursor: null }));
    storeSessionOf('admin');

    // Act
    await callApi('listAudit');
    await callApi('listAudit', { query: { cursor: undefined } });

    // Assert
    expect(network.requests.map((request) => request.url)).toEqual(['/api/audit', '/api/audit']);
  });
});
