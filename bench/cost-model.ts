import type { MeasuredUnits } from './cost';

/**
 * What a firm costs a month at the target's mix, from measured units: the bench's per run, per idle
 * minute and per API request (`bench/cost-units.json`), and the stage's fixed lines read from the
 * synthesized prod template (`npm run docs:operations`). Every line a firm causes is here: its
 * runs, its share of the stage at rest, its lawyers' secrets, its API requests (API Gateway,
 * Lambda, DynamoDB, logs), its site loads (CloudFront), the traces X-Ray records.
 *
 * Prices: AWS eu-west-3 (Paris), on-demand, USD, as known to the author on the date below (no
 * network here to check them: re-read the pricing pages before relying on the figures).
 */
export const PRICES = {
  date: '2025-06-01',
  dynamoDbWritePerMillion: 0.7625,
  dynamoDbReadPerMillion: 0.1525,
  sqsRequestPerMillion: 0.4,
  lambdaRequestPerMillion: 0.2,
  /** arm64. */
  lambdaGbSecond: 0.0000133334,
  logIngestionPerGb: 0.57,
  secretMonth: 0.4,
  /** HTTP API, first 300 million requests a month. */
  httpApiRequestPerMillion: 1.11,
  /** Europe: data out to the internet, and HTTPS requests. */
  cloudFrontPerGb: 0.085,
  cloudFrontHttpsPerTenThousand: 0.012,
  xrayTracePerMillion: 5,
} as const;

/** The target's mix: 1,000,000 automations of 10,000 firms, 133,333 runs a minute. */
export const TARGET_MIX = {
  firms: 10_000,
  automations: 1_000_000,
  runsPerMinute: 133_333,
  /** One lawyer account per firm (the cap of 5 calls at a time is per lawyer e-mail). */
  lawyersPerFirm: 1,
} as const;

/**
 * How a firm uses the API and the site in a month, stated rather than measured: 22 working days,
 * one sign-in a day, the site loaded once a day (its assets then cached), and about 150 API
 * requests a day (lists and pages, and the health of the cards every 30 s while the planning page
 * is open, about an hour a day).
 */
export const FIRM_USAGE = {
  signInsPerMonth: 22,
  apiRequestsPerMonth: 22 * 150,
  siteLoadsPerMonth: 22,
  /** What a load of the site transfers (the /login page's assets, gzipped: bench first-load). */
  siteLoadBytes: 280_000,
  siteLoadRequests: 6,
  /** Lambda time and memory of an API request (a warm function, 512 MB). */
  apiRequestGbSeconds: 0.05 * 0.5,
  apiRequestLogBytes: 1_200,
} as const;

/** X-Ray's default sampling in Lambda: the first request each second, then 5 % of the others. */
export function tracedShare(invocationsPerSecond: number): number {
  if (invocationsPerSecond <= 1) return 1;
  return (1 + 0.05 * (invocationsPerSecond - 1)) / invocationsPerSecond;
}

const MINUTES_A_MONTH = 30 * 24 * 60;

export interface FirmCostLine {
  readonly line: string;
  readonly quantity: string;
  readonly monthly: number;
}

/** Units an API request costs in DynamoDB, measured (`api-calls.ts`): the mean of the requests measured. */
export interface ApiRequestUnits {
  readonly readUnits: number;
  readonly writeUnits: number;
}

function unitsCost(units: MeasuredUnits, times: number): number {
  return (
    times *
    (units.lambdaGbSeconds * PRICES.lambdaGbSecond +
      (units.lambdaRequests * PRICES.lambdaRequestPerMillion) / 1e6 +
      (units.dynamoDbWriteUnits * PRICES.dynamoDbWritePerMillion) / 1e6 +
      (units.dynamoDbReadUnits * PRICES.dynamoDbReadPerMillion) / 1e6 +
      (units.sqsRequests * PRICES.sqsRequestPerMillion) / 1e6 +
      (units.logBytes / 1e9) * PRICES.logIngestionPerGb)
  );
}

/**
 * One firm's month at the target's mix, line by line. `stageFixedMonthly` is what the stage costs
 * at rest besides its minute tick (alarms, secrets, dashboards), read from the prod template.
 */
export function firmCostAtMix(input: {
  readonly perRun: MeasuredUnits;
  readonly perIdleMinute: MeasuredUnits;
  readonly apiRequest: ApiRequestUnits;
  readonly stageFixedMonthly: number | null;
}): FirmCostLine[] {
  const runsPerMonth = (TARGET_MIX.runsPerMinute * MINUTES_A_MONTH) / TARGET_MIX.firms;
  const run = input.perRun;
  const per = (unitsTotal: number, unitPrice: number) => (unitsTotal * unitPrice) / 1e6;
  const workerInvocationsPerSecond = (TARGET_MIX.runsPerMinute / 60) * run.lambdaRequests;
  const api = FIRM_USAGE;
  return [
    {
      line: 'scheduled runs: DynamoDB writes',
      quantity: `${runsPerMonth.toFixed(0)} runs × ${run.dynamoDbWriteUnits.toFixed(2)} units`,
      monthly: per(runsPerMonth * run.dynamoDbWriteUnits, PRICES.dynamoDbWritePerMillion),
    },
    {
      line: 'scheduled runs: DynamoDB reads',
      quantity: `× ${run.dynamoDbReadUnits.toFixed(2)} units`,
      monthly: per(runsPerMonth * run.dynamoDbReadUnits, PRICES.dynamoDbReadPerMillion),
    },
    {
      line: 'scheduled runs: worker Lambda (GB-s and requests)',
      quantity: `× ${run.lambdaGbSeconds.toFixed(4)} GB-s, ${run.lambdaRequests.toFixed(2)} invocations`,
      monthly:
        runsPerMonth * run.lambdaGbSeconds * PRICES.lambdaGbSecond +
        per(runsPerMonth * run.lambdaRequests, PRICES.lambdaRequestPerMillion),
    },
    {
      line: 'scheduled runs: SQS requests',
      quantity: `× ${run.sqsRequests.toFixed(2)}`,
      monthly: per(runsPerMonth * run.sqsRequests, PRICES.sqsRequestPerMillion),
    },
    {
      line: 'scheduled runs: logs ingested',
      quantity: `× ${run.logBytes.toFixed(0)} B`,
      monthly: ((runsPerMonth * run.logBytes) / 1e9) * PRICES.logIngestionPerGb,
    },
    {
      line: 'scheduled runs: X-Ray traces (default sampling of the worker)',
      quantity: `${(100 * tracedShare(workerInvocationsPerSecond)).toFixed(1)} % of ${(runsPerMonth * run.lambdaRequests).toFixed(0)} invocations`,
      monthly: per(
        runsPerMonth * run.lambdaRequests * tracedShare(workerInvocationsPerSecond),
        PRICES.xrayTracePerMillion,
      ),
    },
    {
      line: 'lawyers’ Google secrets (Secrets Manager)',
      quantity: `${TARGET_MIX.lawyersPerFirm}`,
      monthly: TARGET_MIX.lawyersPerFirm * PRICES.secretMonth,
    },
    {
      line: 'API requests: API Gateway, Lambda, DynamoDB, logs',
      quantity: `${api.apiRequestsPerMonth + api.signInsPerMonth} requests`,
      monthly:
        (api.apiRequestsPerMonth + api.signInsPerMonth) *
        (PRICES.httpApiRequestPerMillion / 1e6 +
          PRICES.lambdaRequestPerMillion / 1e6 +
          api.apiRequestGbSeconds * PRICES.lambdaGbSecond +
          (input.apiRequest.readUnits * PRICES.dynamoDbReadPerMillion) / 1e6 +
          (input.apiRequest.writeUnits * PRICES.dynamoDbWritePerMillion) / 1e6 +
          (api.apiRequestLogBytes / 1e9) * PRICES.logIngestionPerGb),
    },
    {
      line: 'site loads (CloudFront)',
      quantity: `${api.siteLoadsPerMonth} loads of ${(api.siteLoadBytes / 1000).toFixed(0)} kB`,
      monthly:
        ((api.siteLoadsPerMonth * api.siteLoadBytes) / 1e9) * PRICES.cloudFrontPerGb +
        ((api.siteLoadsPerMonth * api.siteLoadRequests) / 1e4) * PRICES.cloudFrontHttpsPerTenThousand,
    },
    {
      line: 'share of the stage’s minute tick (claimers reading 64 shards)',
      quantity: `1/${TARGET_MIX.firms} of ${MINUTES_A_MONTH} minutes`,
      monthly: unitsCost(input.perIdleMinute, MINUTES_A_MONTH) / TARGET_MIX.firms,
    },
    {
      line: 'share of the stage at rest (alarms, secrets, dashboards; prod template)',
      quantity:
        input.stageFixedMonthly === null
          ? 'not read here: docs/operations.md § 16 prices it'
          : `1/${TARGET_MIX.firms}`,
      monthly: (input.stageFixedMonthly ?? 0) / TARGET_MIX.firms,
    },
  ];
}

export const firmTotal = (lines: readonly FirmCostLine[]) =>
  lines.reduce((sum, line) => sum + line.monthly, 0);
