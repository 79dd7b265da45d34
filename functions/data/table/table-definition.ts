/**
 * The single DynamoDB table: its keys, indexes and TTL attribute. The CDK stack and the local
 * runtime both build the table from this one definition, so they cannot drift apart.
 *
 * Access patterns are documented in docs/data-model.md.
 */
export const TABLE_DEFINITION = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'expiresAt',
  /**
   * Overloaded GSIs. GSI1: the "all of a kind, newest first" lists (lawyers, workflows, folders,
   * audit entries) and the licence-by-e-mail look-up; GSI2: workflows by owner and sessions by
   * licence; GSI3: workflows by folder (sparse); DueSlots: scheduled workflows by next unclaimed
   * run, write-sharded and sparse (only active, scheduled workflows have it). The list indexes
   * project every attribute; DueSlots only what a claim reads, so that what a run writes on its
   * schedule item (its last run, its health) never rewrites the index entry.
   */
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
    {
      indexName: 'DueSlots',
      partitionKey: 'DuePK',
      sortKey: 'DueSK',
      projected: [
        'id',
        'name',
        'lawyerEmail',
        'type',
        'cronInterval',
        'active',
        'cronEnabled',
        'cronNextRun',
        'claimedAt',
      ],
    },
  ],
} as const;

type IndexDefinition = (typeof TABLE_DEFINITION.globalSecondaryIndexes)[number];

/** The non-key attributes an index copies: all (`null`), or the names it lists. */
export const projectedAttributesOf = (index: IndexDefinition): readonly string[] | null =>
  'projected' in index ? index.projected : null;

export type IndexName = (typeof TABLE_DEFINITION.globalSecondaryIndexes)[number]['indexName'];

/** The CreateTable input of the definition (local runtime and tests; CDK maps it itself). */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, globalSecondaryIndexes } = TABLE_DEFINITION;
  const attributeNames = [
    partitionKey,
    sortKey,
    ...globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributeNames.map((name) => ({
      AttributeName: name,
      AttributeType: 'S' as const,
    })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: globalSecondaryIndexes.map(indexInput),
  };
}

/** The CreateTable (or UpdateTable Create) input of one index. */
export function indexInput(index: IndexDefinition) {
  const projected = projectedAttributesOf(index);
  return {
    IndexName: index.indexName,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: projected
      ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...projected] }
      : { ProjectionType: 'ALL' as const },
  };
}
