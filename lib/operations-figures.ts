/**
 * Figures of docs/operations.md computed from the synthesized templates (`npm run docs:operations`
 * writes them, an infra test compares them), so the runbook never states an alarm or a price that
 * the stack does not have.
 */

type TemplateResource = {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
};

/** One synthesized stack of the stage. */
export interface SynthesizedStack {
  readonly stackName: string;
  readonly region: string;
  readonly resources: Readonly<Record<string, TemplateResource>>;
}

export interface AlarmRow {
  /** The alarm's id without the stack's prefix, `<function>` or `<route>` standing for a family. */
  readonly alarm: string;
  readonly count: number;
  readonly metric: string;
  readonly threshold: string;
  readonly periods: string;
  readonly action: string;
}

const OPERATORS: Record<string, string> = {
  GreaterThanOrEqualToThreshold: '≥',
  GreaterThanThreshold: '>',
  LessThanThreshold: '<',
  LessThanOrEqualToThreshold: '≤',
};

type MetricStat = { Metric: { Namespace: string; MetricName: string }; Period: number; Stat: string };
type AlarmProperties = {
  AlarmName?: unknown;
  Namespace?: string;
  MetricName?: string;
  Statistic?: string;
  ExtendedStatistic?: string;
  Period?: number;
  Metrics?: { Id: string; Expression?: string; MetricStat?: MetricStat }[];
  Threshold: number;
  ComparisonOperator: string;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  TreatMissingData?: string;
  AlarmActions?: unknown[];
};

const minutes = (seconds: number) => `${seconds / 60} min`;

function metricOf(alarm: AlarmProperties): string {
  if (alarm.MetricName) {
    return `${alarm.Namespace} \`${alarm.MetricName}\`, ${alarm.Statistic ?? alarm.ExtendedStatistic} per ${minutes(alarm.Period ?? 60)}`;
  }
  const expression = alarm.Metrics?.find((metric) => metric.Expression);
  const inputs = (alarm.Metrics ?? []).flatMap((metric) => (metric.MetricStat ? [metric.MetricStat] : []));
  const names = [...new Set(inputs.map((input) => `\`${input.Metric.MetricName}\``))].join(', ');
  const period = inputs[0] ? minutes(inputs[0].Period) : '';
  if (expression?.Expression && inputs.length <= 3) {
    const namespace = inputs[0]?.Metric.Namespace ?? '';
    return `${namespace} \`${expression.Expression}\` over ${names}, per ${period}`;
  }
  return `${inputs[0]?.Metric.Namespace ?? ''} sum of ${inputs.length} series (${names}), per ${period}`;
}

/** `AssistantJuridique-prod-Monitoring-Api-lawyers-Errors` → `Api-lawyers-Errors` → `<function>-Errors`. */
function familyOf(id: string): string {
  const errors = id.match(/^(.+)-(Errors|Throttles)$/);
  if (errors) return `<function>-${errors[2]}`;
  if (id.startsWith('ApiLatencyP99-')) return 'ApiLatencyP99-<route>';
  return id;
}

/**
 * The stage's alarms, one row per alarm or per family of alarms that differ only by function or
 * route (same metric, threshold, periods and action), from every stack of the stage.
 */
export function alarmRows(stacks: readonly SynthesizedStack[]): AlarmRow[] {
  const rows = new Map<string, AlarmRow>();
  for (const stack of stacks) {
    const resent = new Set<string>();
    for (const resource of Object.values(stack.resources)) {
      if (resource.Type !== 'AWS::Scheduler::Schedule') continue;
      const input = (resource.Properties?.Target as { Input?: string } | undefined)?.Input;
      const name = input?.includes('"AlarmName"')
        ? (JSON.parse(input) as { AlarmName: string }).AlarmName
        : undefined;
      const every = String(resource.Properties?.ScheduleExpression ?? '').match(/^rate\((.+)\)$/)?.[1];
      if (name && every) resent.add(`${name}|${every}`);
    }
    for (const resource of Object.values(stack.resources)) {
      if (resource.Type !== 'AWS::CloudWatch::Alarm') continue;
      const alarm = resource.Properties as unknown as AlarmProperties;
      const name = typeof alarm.AlarmName === 'string' ? alarm.AlarmName : '';
      const id = name.replace(/^AssistantJuridique-[a-z]+-(Monitoring-|Edge-)?/, '');
      const reminder = [...resent].find((entry) => entry.startsWith(`${name}|`))?.split('|')[1];
      const row = {
        alarm: familyOf(id),
        metric: metricOf(alarm),
        threshold: `${OPERATORS[alarm.ComparisonOperator] ?? alarm.ComparisonOperator} ${alarm.Threshold}`,
        periods:
          `${alarm.DatapointsToAlarm ?? alarm.EvaluationPeriods} of ${alarm.EvaluationPeriods}` +
          (alarm.TreatMissingData === 'breaching' ? ', no data = alarm' : ''),
        action:
          (alarm.AlarmActions?.length ? `e-mail (${stack.region})` : 'none') +
          (reminder ? `, again every ${reminder}` : ''),
      };
      const key = [row.alarm, row.metric, row.threshold, row.periods, row.action].join('|');
      const existing = rows.get(key);
      // A family of one is shown by its own name.
      rows.set(
        key,
        existing
          ? { ...existing, alarm: row.alarm, count: existing.count + 1 }
          : { ...row, alarm: id, count: 1 },
      );
    }
  }
  return [...rows.values()].sort((a, b) => a.alarm.localeCompare(b.alarm));
}

export function renderAlarmTable(rows: readonly AlarmRow[]): string {
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  const lines = [
    `${total} alarms. A family (\`<function>\`, \`<route>\`) is one alarm per function or route, counted in the last column.`,
    '',
    '| alarm | metric | threshold | periods in alarm | action | alarms |',
    '| ----- | ------ | --------- | ---------------- | ------ | ------ |',
    ...rows.map(
      (row) =>
        `| \`${row.alarm}\` | ${row.metric.replaceAll('|', '\\|')} | ${row.threshold} | ${row.periods} | ${row.action} | ${row.count} |`,
    ),
  ];
  return lines.join('\n');
}

/**
 * List prices used for the idle cost, in USD a month (eu-west-3, Paris; the recovery and edge
 * stacks' few items are priced the same). Change them here when AWS changes them.
 */
export const UNIT_PRICES = {
  alarmMetric: 0.1,
  secret: 0.4,
  secretReplica: 0.4,
  dashboard: 3,
  customMetric: 0.3,
  logIngestionPerGb: 0.57,
  lambdaGbSecond: 0.0000133334,
  lambdaRequestPerMillion: 0.2,
  dynamoDbWritePerMillion: 0.7625,
  dynamoDbReadPerMillion: 0.1525,
  sqsRequestPerMillion: 0.4,
} as const;

/**
 * Units the bench measures (`npm run bench`, the delivery part), per idle minute of a stage (the
 * tick and its claimers run every minute) and per scheduled run: null until measured.
 */
export interface MeasuredUnits {
  readonly lambdaGbSeconds: number | null;
  readonly lambdaRequests: number | null;
  readonly dynamoDbWriteUnits: number | null;
  readonly dynamoDbReadUnits: number | null;
  readonly sqsRequests: number | null;
  readonly logBytes: number | null;
}

export interface BenchCostUnits {
  readonly perIdleMinute: MeasuredUnits;
  readonly perRun: MeasuredUnits;
  /** The custom metrics a stage publishes at rest (the tick's), each billed as a metric-month. */
  readonly metricsPublishedAtRest: number | null;
}

export interface CostLine {
  readonly item: string;
  readonly quantity: number | null;
  readonly unitPrice: string;
  readonly monthly: number | null;
}

const MINUTES_A_MONTH = 30 * 24 * 60;
/** An HTTP API route's own metrics once detailed: Count, 4xx, 5xx, Latency, IntegrationLatency, DataProcessed. */
const HTTP_API_ROUTE_METRICS = 6;

/** Monthly cost of a set of measured units; null when any of them is not measured yet. */
function activityCost(units: MeasuredUnits, times: number): number | null {
  const values = Object.values(units);
  if (values.some((value) => value === null)) return null;
  const u = units as { [K in keyof MeasuredUnits]: number };
  return (
    times *
    (u.lambdaGbSeconds * UNIT_PRICES.lambdaGbSecond +
      (u.lambdaRequests * UNIT_PRICES.lambdaRequestPerMillion) / 1e6 +
      (u.dynamoDbWriteUnits * UNIT_PRICES.dynamoDbWritePerMillion) / 1e6 +
      (u.dynamoDbReadUnits * UNIT_PRICES.dynamoDbReadPerMillion) / 1e6 +
      (u.sqsRequests * UNIT_PRICES.sqsRequestPerMillion) / 1e6 +
      (u.logBytes / 1e9) * UNIT_PRICES.logIngestionPerGb)
  );
}

/** A line billed per unit a month. */
const priced = (item: string, quantity: number, price: number): CostLine => ({
  item,
  quantity,
  unitPrice: `$${price}`,
  monthly: quantity * price,
});

/** What a stage costs a month with no firm using it: its resources, then its idle activity. */
export function idleCostOf(stacks: readonly SynthesizedStack[], bench: BenchCostUnits): CostLine[] {
  let alarmMetrics = 0;
  let secrets = 0;
  let replicas = 0;
  let dashboards = 0;
  let logGroups = 0;
  let routeMetrics = 0;
  for (const stack of stacks) {
    for (const resource of Object.values(stack.resources)) {
      const properties = resource.Properties ?? {};
      if (resource.Type === 'AWS::CloudWatch::Alarm') {
        const metrics = (properties.Metrics as { MetricStat?: unknown }[] | undefined) ?? [];
        alarmMetrics += metrics.length > 0 ? metrics.filter((metric) => metric.MetricStat).length : 1;
      }
      if (resource.Type === 'AWS::SecretsManager::Secret') {
        secrets += 1;
        replicas += ((properties.ReplicaRegions as unknown[] | undefined) ?? []).length;
      }
      if (resource.Type === 'AWS::CloudWatch::Dashboard') dashboards += 1;
      if (resource.Type === 'AWS::Logs::LogGroup') logGroups += 1;
      if (resource.Type === 'AWS::ApiGatewayV2::Stage') {
        const routes = Object.values(
          (properties.RouteSettings as Record<string, { DetailedMetricsEnabled?: boolean }>) ?? {},
        );
        routeMetrics +=
          routes.filter((route) => route.DetailedMetricsEnabled).length * HTTP_API_ROUTE_METRICS;
      }
    }
  }
  const idle = activityCost(bench.perIdleMinute, MINUTES_A_MONTH);
  return [
    priced('alarm metrics (a metric-math alarm counts each metric)', alarmMetrics, UNIT_PRICES.alarmMetric),
    priced('secrets', secrets, UNIT_PRICES.secret),
    priced('secret replicas', replicas, UNIT_PRICES.secretReplica),
    priced('dashboards (free within an account’s first 3)', dashboards, UNIT_PRICES.dashboard),
    {
      item: 'log groups (billed by what they ingest, below)',
      quantity: logGroups,
      unitPrice: '$0',
      monthly: 0,
    },
    {
      item: `route metrics of the watched routes (none at rest; $${(routeMetrics * UNIT_PRICES.customMetric).toFixed(2)} once each is called in a month)`,
      quantity: routeMetrics,
      unitPrice: `$${UNIT_PRICES.customMetric}`,
      monthly: 0,
    },
    {
      item: 'custom metrics published at rest (bench)',
      quantity: bench.metricsPublishedAtRest,
      unitPrice: `$${UNIT_PRICES.customMetric}`,
      monthly:
        bench.metricsPublishedAtRest === null
          ? null
          : bench.metricsPublishedAtRest * UNIT_PRICES.customMetric,
    },
    {
      item: 'tick and claimers every minute: Lambda, DynamoDB, SQS, logs (bench, per idle minute)',
      quantity: MINUTES_A_MONTH,
      unitPrice: 'measured units',
      monthly: idle,
    },
  ];
}

/** A firm's month: its lawyers' Google secrets and its scheduled runs at the bench's units. */
export function firmCostOf(
  bench: BenchCostUnits,
  firm: { lawyers: number; runsPerMonth: number },
): CostLine[] {
  return [
    priced('lawyers’ Google secrets', firm.lawyers, UNIT_PRICES.secret),
    {
      item: 'scheduled runs (bench, per run)',
      quantity: firm.runsPerMonth,
      unitPrice: 'measured units',
      monthly: activityCost(bench.perRun, firm.runsPerMonth),
    },
  ];
}

/** The firm the per-firm cost is stated for: 5 lawyers, 20 automations each run hourly. */
export const REFERENCE_FIRM = { lawyers: 5, runsPerMonth: 20 * 24 * 30 } as const;

const money = (value: number | null) => (value === null ? 'not measured yet' : `$${value.toFixed(2)}`);

export function renderCostTable(title: string, lines: readonly CostLine[]): string {
  const known = lines.reduce((sum, line) => sum + (line.monthly ?? 0), 0);
  const missing = lines.some((line) => line.monthly === null);
  return [
    `| ${title} | quantity | unit price a month | a month |`,
    '| ---- | -------- | ------------------ | ------- |',
    ...lines.map(
      (line) => `| ${line.item} | ${line.quantity ?? '—'} | ${line.unitPrice} | ${money(line.monthly)} |`,
    ),
    `| **total** | | | **$${known.toFixed(2)}${missing ? ' + the lines not measured yet' : ''}** |`,
  ].join('\n');
}

/** Resources of each stack against CloudFormation's 500 a stack. */
export function renderResourceCounts(stacks: readonly SynthesizedStack[]): string {
  return stacks
    .map(
      (stack) =>
        `- \`${stack.stackName}\` (${stack.region}): ${Object.keys(stack.resources).length} resources of 500`,
    )
    .join('\n');
}

/** Replaces the text between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. */
export function replaceGenerated(document: string, name: string, content: string): string {
  const start = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from === -1 || to === -1 || to < from) throw new Error(`docs: no ${start} … ${end} section`);
  return `${document.slice(0, from + start.length)}\n${content}\n${document.slice(to)}`;
}

/** The text between the markers, as written. */
export function generatedSection(document: string, name: string): string | undefined {
  const start = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  return from === -1 || to === -1 ? undefined : document.slice(from + start.length, to).trim();
}
