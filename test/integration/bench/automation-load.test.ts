import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AutomationLoad } from '../../../bench/automation-load';
import { benchTable, dropTable } from '../../../bench/scheduler';
import { automationOf, randomOf } from '../../../bench/search';
import { WorkflowRepository } from '../../../functions/data/directory/workflows';
import type { Table } from '../../../functions/data/table/table';
import { WORKFLOW_TYPES } from '../../../shared/constants';
import { scanTable } from '../../support/records';

/** Every item of the table, in key order. */
async function everyItem(table: Table) {
  const keyOf = (item: Record<string, unknown>) => `${String(item.PK)}|${String(item.SK)}`;
  return (await scanTable(table)).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
}

describe("the search bench's bulk load", () => {
  let loaded: Table;
  let created: Table;
  beforeAll(async () => {
    [loaded, created] = await Promise.all([
      benchTable(inject('dynamoEndpoint')),
      benchTable(inject('dynamoEndpoint')),
    ]);
  });
  afterAll(async () => {
    await Promise.all([dropTable(loaded), dropTable(created)]);
  });

  it('leaves the very items the product leaves when it creates the same automations one by one', async () => {
    const random = randomOf(7);
    // The bench's automations over 3 firms, with every type and state so that each counter moves.
    const records = Array.from({ length: 24 }, (_, index) => ({
      ...automationOf(index, random, 3),
      type: WORKFLOW_TYPES[index % WORKFLOW_TYPES.length] as (typeof WORKFLOW_TYPES)[number],
      active: index % 4 !== 1,
      cronEnabled: index % 5 !== 2,
    }));
    const load = new AutomationLoad(loaded);
    await load.write(records.slice(0, 10));
    await load.write(records.slice(10));
    await load.finish();
    const repository = new WorkflowRepository(created);
    for (const record of records) await repository.create(record);

    const [fromLoad, fromCreate] = await Promise.all([everyItem(loaded), everyItem(created)]);
    expect(fromCreate.filter((item) => item.entity === 'SearchEntry').length).toBeGreaterThan(records.length);
    expect(fromCreate.filter((item) => String(item.PK).startsWith('COUNTS#')).length).toBeGreaterThan(3);
    expect(fromLoad).toEqual(fromCreate);
    expect(load.items).toBe(fromCreate.length);
  });
});
