import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

import {
  type IndexName,
  projectedAttributesOf,
  TABLE_DEFINITION,
} from '../../functions/data/table/table-definition';
import { ENVIRONMENT } from '../../functions/runtime/environment';

/** What a function may do with the table. */
export type TableAccess = 'read' | 'readWrite';

/**
 * Item actions only: every access pattern is a GetItem or a Query, so Scan is never granted, and
 * transactions are authorised by the item actions they contain.
 */
const TABLE_ACTIONS: Record<TableAccess, readonly string[]> = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  readWrite: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:BatchWriteItem',
    'dynamodb:ConditionCheckItem',
  ],
};
const INDEX_ACTIONS = ['dynamodb:Query'];

const attribute = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

export interface DataTableProps {
  /**
   * What happens to the table when the stack is deleted or the table replaced.
   * @default RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE (it holds the only copy of licences and lawyers)
   */
  readonly removalPolicy?: RemovalPolicy;
  /**
   * An existing table to use instead of creating one (a table restored from a backup): the stack
   * then grants and watches it but never owns it.
   * @default - the stack creates its table
   */
  readonly existingTableName?: string;
  /**
   * DynamoDB deletion protection: no API call, console click or CloudFormation update can delete
   * the table while it is on.
   * @default true
   */
  readonly deletionProtection?: boolean;
}

/**
 * The single table, from the `TABLE_DEFINITION` the local runtime also builds from: on demand,
 * point-in-time recovery, deletion protection, TTL, each index projecting what the definition says.
 * It holds the only copy of licences and lawyers.
 */
export class DataTable extends Construct {
  readonly table: dynamodb.ITable;
  /** The table this stack created; undefined when it uses an existing one. */
  readonly ownTable?: dynamodb.Table;

  constructor(scope: Construct, id: string, props: DataTableProps = {}) {
    super(scope, id);
    if (props.existingTableName) {
      this.table = dynamodb.Table.fromTableAttributes(this, 'Table', {
        tableName: props.existingTableName,
        globalIndexes: TABLE_DEFINITION.globalSecondaryIndexes.map((index) => index.indexName),
      });
      return;
    }
    const table = new dynamodb.Table(this, 'Table', {
      partitionKey: attribute(TABLE_DEFINITION.partitionKey),
      sortKey: attribute(TABLE_DEFINITION.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.deletionProtection ?? true,
      timeToLiveAttribute: TABLE_DEFINITION.timeToLiveAttribute,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    for (const index of TABLE_DEFINITION.globalSecondaryIndexes) {
      const projected = projectedAttributesOf(index);
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: attribute(index.sortKey),
        ...(projected
          ? { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...projected] }
          : { projectionType: dynamodb.ProjectionType.ALL }),
      });
    }
    this.table = table;
    this.ownTable = table;
  }

  get tableName(): string {
    return this.table.tableName;
  }

  /**
   * Gives a function the table: sets `TABLE_NAME` and grants exactly the item actions of the
   * access level on the table, and Query on the indexes it queries, each named (no wildcard).
   */
  bindTable(fn: lambda.Function, access: TableAccess, indexes: readonly IndexName[]): void {
    fn.addEnvironment(ENVIRONMENT.tableName, this.table.tableName);
    fn.addToRolePolicy(
      new iam.PolicyStatement({ actions: [...TABLE_ACTIONS[access]], resources: [this.table.tableArn] }),
    );
    if (indexes.length === 0) return;
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: INDEX_ACTIONS,
        resources: indexes.map((index) => `${this.table.tableArn}/index/${index}`),
      }),
    );
  }
}
