import { timingSafeEqual } from 'node:crypto';

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;
/** A Lambda handler behind the HTTP API (payload format 2.0). */
export type ApiHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** A JSON reply with the headers every API reply carries. */
export function jsonResult(statusCode: number, body: unknown): ApiResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  };
}

/** The header CloudFront adds to the requests it forwards to the API, carrying a secret. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * The client's address: CloudFront's viewer address, trusted only with the origin secret (else a
 * direct caller could choose his address and escape sign-in throttling); the source address otherwise.
 * @param originSecret the value CloudFront sends in `x-origin-verify`, if the deployment has one
 */
export function clientAddressOf(event: ApiEvent, originSecret: string | undefined): string {
  const viewer = event.headers?.['cloudfront-viewer-address'];
  if (viewer && originSecret && fromOrigin(event, originSecret)) return viewer.replace(/:\d+$/, '');
  return event.requestContext.http.sourceIp;
}

/** Whether a request carries the origin secret, i.e. came through our CloudFront distribution. */
export function fromOrigin(event: ApiEvent, originSecret: string): boolean {
  const proof = event.headers?.[ORIGIN_VERIFY_HEADER];
  return proof !== undefined && sameSecret(proof, originSecret);
}

/** Constant-time comparison, so the response time says nothing about the secret. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The bearer token of the Authorization header, if any. */
export function bearerTokenOf(event: ApiEvent): string | null {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}
