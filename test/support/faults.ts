import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandInput,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  type PutCommandInput,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';

import type { Table } from '../../functions/data/table/table';

/** An AWS SDK client error of that name, as aws-sdk-client-mock makes a real client reject with. */
export const awsError = (name: string) =>
  Object.assign(new Error(`${name} (simulé)`), { name, $fault: 'client' });

/**
 * A table whose client sends every call to DynamoDB Local through `table`, except the calls of
 * the commands `faults` names, which their function answers (sending them on, or not): the fault
 * injected with aws-sdk-client-mock, the data real.
 */
export function tableWithFaults(
  table: Table,
  faults: {
    readonly batchGet?: (input: BatchGetCommandInput) => Promise<unknown>;
    readonly transactWrite?: (input: TransactWriteCommandInput) => Promise<unknown>;
    readonly put?: (input: PutCommandInput) => Promise<unknown>;
  },
): Table {
  const faulty = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: 'eu-west-3', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }),
  );
  const mock = mockClient(faulty);
  const store = table.doc;
  mock.on(GetCommand).callsFake((input) => store.send(new GetCommand(input)));
  mock.on(BatchGetCommand).callsFake(faults.batchGet ?? ((input) => store.send(new BatchGetCommand(input))));
  mock.on(QueryCommand).callsFake((input) => store.send(new QueryCommand(input)));
  mock.on(UpdateCommand).callsFake((input) => store.send(new UpdateCommand(input)));
  mock.on(DeleteCommand).callsFake((input) => store.send(new DeleteCommand(input)));
  mock.on(PutCommand).callsFake(faults.put ?? ((input) => store.send(new PutCommand(input))));
  mock
    .on(TransactWriteCommand)
    .callsFake(faults.transactWrite ?? ((input) => store.send(new TransactWriteCommand(input))));
  return { ...table, doc: faulty };
}
