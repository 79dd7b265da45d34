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

/**
 * The address of the client. Behind CloudFront the HTTP API sees CloudFront's address, so the
 * viewer address CloudFront sets (and overwrites if a client sends one) is preferred.
 */
export function clientAddressOf(event: ApiEvent): string {
  const viewer = event.headers?.['cloudfront-viewer-address'];
  if (viewer) return viewer.replace(/:\d+$/, '');
  return event.requestContext.http.sourceIp;
}

/** The bearer token of the Authorization header, if any. */
export function bearerTokenOf(event: ApiEvent): string | null {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}
