/**
 * The single DynamoDB table: its keys, indexes and TTL attribute. The CDK stack and the local
 * runtime both build the table from this one definition, so they cannot drift apart.
 *
 * Access patterns are documented in the README ("Données").
 */
export const TABLE_DEFINITION = {
  partitionKey: 'PK',
  sortKey: 'SK',
  timeToLiveAttribute: 'expiresAt',
  /**
   * Overloaded GSIs. GSI1: the "all of a kind, newest first" lists (lawyers, workflows, folders,
   * audit entries) and the licence-by-e-mail look-up; GSI2: workflows by owner and sessions by
   * licence; GSI3: workflows by folder (sparse); DueIndex: scheduled workflows by next run,
   * write-sharded and sparse (only active, scheduled workflows have it).
   */
  globalSecondaryIndexes: [
    { indexName: 'GSI1', partitionKey: 'GSI1PK', sortKey: 'GSI1SK' },
    { indexName: 'GSI2', partitionKey: 'GSI2PK', sortKey: 'GSI2SK' },
    { indexName: 'GSI3', partitionKey: 'GSI3PK', sortKey: 'GSI3SK' },
    { indexName: 'DueIndex', partitionKey: 'DuePK', sortKey: 'DueSK' },
  ],
} as const;

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
    GlobalSecondaryIndexes: globalSecondaryIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
