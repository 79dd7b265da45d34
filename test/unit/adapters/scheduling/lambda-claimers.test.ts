import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';

import { createLambdaClaimers } from '../../../../functions/adapters/scheduling/lambda-claimers';
import type { ShardClaimRequest } from '../../../../functions/domain/scheduling/ports';
import { MESSAGES } from '../../../../shared/messages';

const lambdaMock = mockClient(LambdaClient);
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const decode = (payload: unknown) =>
  JSON.parse(new TextDecoder().decode(payload as Uint8Array)) as ShardClaimRequest;
const answerOf = (shard: number) => ({
  shard,
  checked: 2,
  queued: 2,
  failed: 0,
  alreadyQueued: 1,
  executions: [
    {
      workflowId: `00000000-0000-4000-8000-00000000000${shard}`,
      workflowName: 'Relance',
      status: 'queued',
      message: MESSAGES.scheduler.queued,
    },
  ],
});

/** An admin's run invokes the claimers synchronously and reads their answers (AWS faults injected). */
describe('the claimers in AWS, for an admin’s run', () => {
  afterEach(() => lambdaMock.reset());

  it('invokes a shard’s claimer synchronously and gives its answer, null where it failed', async () => {
    lambdaMock.on(InvokeCommand).callsFake((input: { Payload?: Uint8Array }) => {
      const { shard } = decode(input.Payload);
      // A handler that threw: Lambda answers 200 with FunctionError and the error as payload.
      if (shard === 1)
        return { StatusCode: 200, FunctionError: 'Unhandled', Payload: encode({ errorMessage: 'x' }) };
      if (shard === 2) throw Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' });
      // An answer of another shape is not taken for a result.
      if (shard === 3) return { StatusCode: 200, Payload: encode({ shard, checked: 'deux' }) };
      // A claimer deployed before the count of runs queued already: none counted.
      if (shard === 4) {
        const { alreadyQueued: _, ...before } = answerOf(shard);
        return { StatusCode: 200, Payload: encode(before) };
      }
      return { StatusCode: 200, Payload: encode(answerOf(shard)) };
    });
    const claimers = createLambdaClaimers(new LambdaClient({}), () => 'claimer');
    const requests = [0, 1, 2, 3, 4].map((shard) => ({
      shard,
      tickAt: '2026-11-26T10:00:00.000Z',
      trigger: 'manual_force' as const,
    }));

    const answers = await Promise.all(requests.map((request) => claimers.claim(request)));

    expect(answers).toEqual([answerOf(0), null, null, null, { ...answerOf(4), alreadyQueued: 0 }]);
    const calls = lambdaMock.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(5);
    for (const call of calls) {
      expect(call.args[0].input).toMatchObject({
        FunctionName: 'claimer',
        InvocationType: 'RequestResponse',
      });
    }
    expect(calls.map((call) => decode(call.args[0].input.Payload))).toEqual(expect.arrayContaining(requests));
  });

  it('starts the minute tick’s claimers asynchronously and says which did not start', async () => {
    lambdaMock
      .on(InvokeCommand)
      .callsFake((input: { Payload?: Uint8Array }) =>
        decode(input.Payload).shard === 1 ? { StatusCode: 500 } : { StatusCode: 202 },
      );
    const claimers = createLambdaClaimers(new LambdaClient({}), () => 'claimer');

    const { failed } = await claimers.start(
      [0, 1, 2].map((shard) => ({ shard, tickAt: '2026-11-26T10:00:00.000Z' })),
    );

    expect(failed).toEqual([1]);
    for (const call of lambdaMock.commandCalls(InvokeCommand)) {
      expect(call.args[0].input.InvocationType).toBe('Event');
    }
  });
});
