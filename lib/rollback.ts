import {
  type CloudFormationClient,
  DescribeStacksCommand,
  paginateListStackResources,
} from '@aws-sdk/client-cloudformation';
import {
  GetAliasCommand,
  type LambdaClient,
  paginateListVersionsByFunction,
  UpdateAliasCommand,
} from '@aws-sdk/client-lambda';

/** One alias the rollback moves, or leaves because nothing changed it in the bad deployment. */
export interface AliasMove {
  readonly alias: string;
  readonly from: string;
  /** Undefined: the alias was not moved by the deployment, or it has no earlier version. */
  readonly to?: string;
  readonly reason: string;
}

export interface RollbackClients {
  readonly cloudFormation: CloudFormationClient;
  readonly lambda: LambdaClient;
}

/** When the stack's last update started: what a rollback undoes. */
export async function lastUpdateOf(
  stackName: string,
  cloudFormation: CloudFormationClient,
): Promise<Date | undefined> {
  const { Stacks } = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
  return Stacks?.[0]?.LastUpdatedTime;
}

/**
 * Where each `live` alias goes back to: a function published since `before` returns to its newest
 * earlier version, the others stay. Kept versions make this seconds, not a redeployment.
 */
export async function planRollback(
  stackName: string,
  before: Date,
  clients: RollbackClients,
): Promise<AliasMove[]> {
  const aliases: string[] = [];
  for await (const page of paginateListStackResources(
    { client: clients.cloudFormation },
    { StackName: stackName },
  )) {
    for (const resource of page.StackResourceSummaries ?? []) {
      if (resource.ResourceType === 'AWS::Lambda::Alias' && resource.PhysicalResourceId) {
        aliases.push(resource.PhysicalResourceId);
      }
    }
  }
  const moves: AliasMove[] = [];
  for (const aliasArn of aliases.sort()) {
    const [functionArn, aliasName] = splitAliasArn(aliasArn);
    const alias = await clients.lambda.send(
      new GetAliasCommand({ FunctionName: functionArn, Name: aliasName }),
    );
    const current = alias.FunctionVersion ?? '$LATEST';
    const published = new Map<string, Date>();
    for await (const page of paginateListVersionsByFunction(
      { client: clients.lambda },
      { FunctionName: functionArn },
    )) {
      for (const version of page.Versions ?? []) {
        if (version.Version && version.Version !== '$LATEST' && version.LastModified) {
          published.set(version.Version, new Date(version.LastModified));
        }
      }
    }
    const publishedAt = published.get(current);
    if (!publishedAt || publishedAt < before) {
      moves.push({ alias: aliasArn, from: current, reason: 'not changed by that deployment' });
      continue;
    }
    const earlier = [...published.entries()]
      .filter(([, at]) => at < before)
      .map(([version]) => version)
      .sort((a, b) => Number(b) - Number(a))[0];
    moves.push(
      earlier
        ? { alias: aliasArn, from: current, to: earlier, reason: `version ${earlier} was live before` }
        : { alias: aliasArn, from: current, reason: 'no version published before that deployment' },
    );
  }
  return moves;
}

/** Points each alias the plan moves at its earlier version. */
export async function applyRollback(moves: readonly AliasMove[], lambda: LambdaClient): Promise<void> {
  for (const move of moves) {
    if (!move.to) continue;
    const [functionArn, aliasName] = splitAliasArn(move.alias);
    await lambda.send(
      new UpdateAliasCommand({ FunctionName: functionArn, Name: aliasName, FunctionVersion: move.to }),
    );
  }
}

/** `arn:aws:lambda:region:account:function:name:alias` → the function's ARN and the alias name. */
function splitAliasArn(aliasArn: string): [string, string] {
  const cut = aliasArn.lastIndexOf(':');
  return [aliasArn.slice(0, cut), aliasArn.slice(cut + 1)];
}
