import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

import type { Table } from './table';
import { isConditionFailure } from './table-errors';

/**
 * Counters of the current hour kept on an item another write updates anyway (a workflow's schedule
 * item at each run's end, a firm's slots item at each release): adding to them costs no write of
 * their own. When a count of a later hour comes, the counters held are moved to that hour's own
 * item and the new hour starts, in one transaction conditional on the counters read, so that a
 * count is neither lost nor added twice; a count of an earlier hour goes to its hour's item.
 *
 * On the item: `<prefix>Hour` (`yyyy-mm-ddThh`) and one number attribute per counter,
 * `<prefix><Name>`. Readers add the item's counters to its hour's own item (`currentHourOf`).
 */

/** A key of the table. */
export interface ItemKey {
  readonly PK: string;
  readonly SK: string;
}

/** The parts of one UpdateItem, joined with the hour's counters. */
export interface UpdateParts {
  readonly set?: Readonly<Record<string, unknown>>;
  readonly add?: Readonly<Record<string, number>>;
  readonly remove?: readonly string[];
  /** Conditions of the write besides the counters' own, with the names and values they use. */
  readonly condition?: {
    readonly expression: string;
    readonly names?: Readonly<Record<string, string>>;
    readonly values?: Readonly<Record<string, unknown>>;
  };
}

export interface HourCounterSpec {
  /** Prefix of the attributes on the item. */
  readonly prefix: string;
  /** The item an hour's counters move to. */
  readonly hourKey: (hour: string) => ItemKey;
  /** Attributes written on that item with the counters (entity, expiry). */
  readonly hourItem: (hour: string) => Readonly<Record<string, unknown>>;
}

export interface HourCount {
  readonly hour: string;
  readonly increments: Readonly<Record<string, number>>;
}

const COUNTER_NAME = /^[a-z][A-Za-z0-9]*$/;

export const hourAttribute = (spec: HourCounterSpec) => `${spec.prefix}Hour`;
const counterAttribute = (spec: HourCounterSpec, name: string) => {
  if (!COUNTER_NAME.test(name)) throw new Error(`Compteur invalide : ${name}`);
  return `${spec.prefix}${name[0]?.toUpperCase()}${name.slice(1)}`;
};
const counterName = (spec: HourCounterSpec, attribute: string) =>
  `${attribute[spec.prefix.length]?.toLowerCase()}${attribute.slice(spec.prefix.length + 1)}`;

/** The counters an item holds for its hour, by counter name; null when it holds none. */
export function currentHourOf(
  spec: HourCounterSpec,
  item: Record<string, unknown> | undefined,
): { readonly hour: string; readonly counts: Record<string, number> } | null {
  const hour = item?.[hourAttribute(spec)];
  if (typeof hour !== 'string' || !item) return null;
  const counts: Record<string, number> = {};
  for (const [attribute, value] of Object.entries(item)) {
    if (attribute !== hourAttribute(spec) && attribute.startsWith(spec.prefix) && typeof value === 'number') {
      counts[counterName(spec, attribute)] = value;
    }
  }
  return { hour, counts };
}

/** An UpdateItem's expression, names and values, from its parts. */
export function updateExpressionOf(parts: UpdateParts) {
  const names: Record<string, string> = { ...parts.condition?.names };
  const values: Record<string, unknown> = { ...parts.condition?.values };
  let next = 0;
  const name = (attribute: string) => {
    const placeholder = `#u${next++}`;
    names[placeholder] = attribute;
    return placeholder;
  };
  const value = (given: unknown) => {
    const placeholder = `:u${next++}`;
    values[placeholder] = given;
    return placeholder;
  };
  const sets = Object.entries(parts.set ?? {}).map(
    ([attribute, given]) => `${name(attribute)} = ${value(given)}`,
  );
  const adds = Object.entries(parts.add ?? {}).map(
    ([attribute, given]) => `${name(attribute)} ${value(given)}`,
  );
  const removes = (parts.remove ?? []).map(name);
  const clauses = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
  ].filter(Boolean);
  return {
    UpdateExpression: clauses.join(' '),
    ...(parts.condition ? { ConditionExpression: parts.condition.expression } : {}),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

const joined = (...conditions: (UpdateParts['condition'] | undefined)[]) => {
  const present = conditions.filter((condition) => condition !== undefined);
  if (present.length === 0) return undefined;
  return {
    expression: present.map((condition) => `(${condition.expression})`).join(' AND '),
    names: Object.assign({}, ...present.map((condition) => condition.names ?? {})),
    values: Object.assign({}, ...present.map((condition) => condition.values ?? {})),
  };
};

/** Why a write with counters did not apply: the write's own condition, or an hour that moved. */
export type CountedUpdateResult =
  | { readonly applied: true; readonly attributes: Record<string, unknown> | undefined }
  | { readonly applied: false };

/**
 * One UpdateItem of `key` with `parts`, adding `count` to the item's hour counters. Returns the
 * attributes `returnValues` asks for (for a rollover, the item as it was before), or `applied:
 * false` when the write's own condition failed (nothing counted then: the caller decides where
 * the count goes, `addToHourItem`).
 */
export async function updateCounting(
  table: Table,
  key: ItemKey,
  parts: UpdateParts,
  spec: HourCounterSpec,
  count: HourCount,
  returnValues: 'UPDATED_OLD' | 'UPDATED_NEW' | 'NONE' = 'NONE',
): Promise<CountedUpdateResult> {
  const counters = Object.fromEntries(
    Object.entries(count.increments)
      .filter(([, amount]) => amount !== 0)
      .map(([counter, amount]) => [counterAttribute(spec, counter), amount]),
  );
  const hour = hourAttribute(spec);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const { Attributes } = await table.doc.send(
        new UpdateCommand({
          TableName: table.name,
          Key: key,
          ...updateExpressionOf({
            ...parts,
            set: { ...parts.set, [hour]: count.hour },
            add: { ...parts.add, ...counters },
            condition: joined(parts.condition, {
              expression: 'attribute_not_exists(#hour) OR #hour = :hour',
              names: { '#hour': hour },
              values: { ':hour': count.hour },
            }),
          }),
          ReturnValues: returnValues === 'NONE' ? undefined : returnValues,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { applied: true, attributes: Attributes };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The item as it was, in DynamoDB's own form on an error (the document client converts answers only).
      const raw = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
      const old = raw ? unmarshall(raw) : undefined;
      const held = currentHourOf(spec, old);
      // The write's own condition failed (or the item is gone): nothing written, nothing counted.
      if (!old || !held || held.hour === count.hour) return { applied: false };
      if (held.hour > count.hour) {
        // A count of an earlier hour (a call that started before the hour turned): to its own item.
        await addToHourItem(table, spec, count);
        const written = await updateCounting(
          table,
          key,
          parts,
          spec,
          { hour: held.hour, increments: {} },
          returnValues,
        );
        return written;
      }
      const moved = await rollOver(table, key, parts, spec, count, old, held);
      if (moved) return { applied: true, attributes: returnValues === 'NONE' ? undefined : old };
      // Another write moved or added to the counters since they were read: read them again.
    }
  }
  throw new Error('Compteurs horaires : trop de conflits');
}

/**
 * Moves the counters held for an earlier hour to that hour's item and starts `count.hour` with
 * `count`, with the write's own parts, in one transaction conditional on the counters as read.
 * False when they changed meanwhile.
 */
async function rollOver(
  table: Table,
  key: ItemKey,
  parts: UpdateParts,
  spec: HourCounterSpec,
  count: HourCount,
  old: Record<string, unknown>,
  held: { readonly hour: string; readonly counts: Record<string, number> },
): Promise<boolean> {
  const hour = hourAttribute(spec);
  const heldAttributes = Object.keys(held.counts).map((counter) => counterAttribute(spec, counter));
  const newCounters = Object.fromEntries(
    Object.entries(count.increments).map(([counter, amount]) => [counterAttribute(spec, counter), amount]),
  );
  const unchanged: NonNullable<UpdateParts['condition']> = {
    expression: [
      '#heldHour = :heldHour',
      ...heldAttributes.map((_, index) => `#held${index} = :held${index}`),
    ].join(' AND '),
    names: Object.fromEntries([
      ['#heldHour', hour],
      ...heldAttributes.map((attribute, index) => [`#held${index}`, attribute]),
    ]),
    values: Object.fromEntries([
      [':heldHour', held.hour],
      ...heldAttributes.map((attribute, index) => [`:held${index}`, old[attribute]]),
    ]),
  };
  const item = updateExpressionOf({
    set: { ...parts.set, [hour]: count.hour, ...newCounters },
    ...(parts.add ? { add: parts.add } : {}),
    remove: [...(parts.remove ?? []), ...heldAttributes.filter((attribute) => !(attribute in newCounters))],
    condition: joined(parts.condition, unchanged),
  });
  try {
    await table.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: { TableName: table.name, Key: key, ...item } },
          { Update: { TableName: table.name, Key: spec.hourKey(held.hour), ...hourItemUpdate(spec, held) } },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

function hourItemUpdate(
  spec: HourCounterSpec,
  count: { readonly hour: string; readonly counts: Record<string, number> },
) {
  return updateExpressionOf({ set: spec.hourItem(count.hour), add: count.counts });
}

/** Adds a count straight to its hour's own item (a count of an hour the item no longer holds). */
export async function addToHourItem(table: Table, spec: HourCounterSpec, count: HourCount): Promise<void> {
  const counts = Object.fromEntries(Object.entries(count.increments).filter(([, amount]) => amount !== 0));
  if (Object.keys(counts).length === 0) return;
  await table.doc.send(
    new UpdateCommand({
      TableName: table.name,
      Key: spec.hourKey(count.hour),
      ...hourItemUpdate(spec, { hour: count.hour, counts }),
    }),
  );
}
