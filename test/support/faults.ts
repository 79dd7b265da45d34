/** An AWS SDK client error of that name, as aws-sdk-client-mock makes a real client reject with. */
export const awsError = (name: string) =>
  Object.assign(new Error(`${name} (simulé)`), { name, $fault: 'client' });
