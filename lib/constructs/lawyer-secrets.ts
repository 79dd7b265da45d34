import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

import { ENVIRONMENT } from '../../functions/runtime/environment';

/**
 * Lawyers' Google secrets are created and deleted by the functions at run time, so this is only
 * their name prefix and the grant scoped to it.
 */
export class LawyerSecrets extends Construct {
  /** `<stack name>/lawyer-secrets/`. */
  readonly prefix: string;
  private readonly arnPattern: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    this.prefix = `${stack.stackName}/lawyer-secrets/`;
    // Secrets Manager appends a random suffix to every secret ARN, hence the trailing wildcard.
    this.arnPattern = stack.formatArn({
      service: 'secretsmanager',
      resource: 'secret',
      resourceName: `${this.prefix}*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
  }

  /** Lets a function create, read, overwrite and delete lawyer secrets, and nothing else. */
  grantReadWrite(fn: lambda.Function): void {
    fn.addEnvironment(ENVIRONMENT.lawyerSecretsPrefix, this.prefix);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [
          'secretsmanager:CreateSecret',
          'secretsmanager:GetSecretValue',
          'secretsmanager:PutSecretValue',
          'secretsmanager:DeleteSecret',
        ],
        resources: [this.arnPattern],
      }),
    );
    NagSuppressions.addResourceSuppressions(
      fn.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'Lawyer secrets are created at run time, one per lawyer, under the prefix ' +
            `${this.prefix}: the grant is scoped to that prefix, the rest of the name is the lawyer id.`,
          appliesTo: [
            { regex: `/^Resource::arn:.+:secretsmanager:.+:secret:${escapeRegExp(this.prefix)}\\*$/` },
          ],
        },
      ],
      true,
    );
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
