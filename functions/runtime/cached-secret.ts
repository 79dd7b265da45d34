import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/**
 * A Secrets Manager value read once per execution environment, on first use, and parsed. A failed
 * read is retried on the next call rather than cached for the container's life.
 *
 * @param secretId the secret's ARN, looked up on first use (only the functions that read a secret
 *   have its environment variable)
 */
export function cachedSecret<T>(
  secrets: SecretsManagerClient,
  secretId: () => string,
  parse: (value: string) => T,
): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => {
    value ??= secrets.send(new GetSecretValueCommand({ SecretId: secretId() })).then(({ SecretString }) => {
      if (!SecretString) throw new Error('Secret vide');
      return parse(SecretString);
    });
    value.catch(() => {
      value = undefined;
    });
    return value;
  };
}
