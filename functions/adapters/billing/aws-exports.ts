import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import type { ExportFiles, ExportFileWriter, ExportJobs } from '../../domain/billing/data-export';

/** The size of each uploaded part: above S3's 5 MiB minimum, so memory holds one part at a time. */
export const EXPORT_PART_BYTES = 8 * 1024 * 1024;

/**
 * The exports bucket in AWS: each archive streamed as a multipart upload (one 8 MiB part buffered
 * at a time, whatever its size), offered by a pre-signed GET URL that downloads it under its file
 * name. The bucket's lifecycle rule deletes the objects and the unfinished uploads after a day.
 */
export function createS3ExportFiles(client: S3Client, bucket: () => string): ExportFiles {
  return {
    async open(objectKey): Promise<ExportFileWriter> {
      const { UploadId } = await client.send(
        new CreateMultipartUploadCommand({
          Bucket: bucket(),
          Key: objectKey,
          ContentType: 'application/zip',
          ServerSideEncryption: 'AES256',
        }),
      );
      if (!UploadId) throw new Error('S3 : envoi en plusieurs parties non ouvert');
      const parts: { ETag: string; PartNumber: number }[] = [];
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const upload = async () => {
        const PartNumber = parts.length + 1;
        const { ETag } = await client.send(
          new UploadPartCommand({
            Bucket: bucket(),
            Key: objectKey,
            UploadId,
            PartNumber,
            Body: Buffer.concat(pending),
          }),
        );
        if (!ETag) throw new Error('S3 : partie envoyée sans ETag');
        parts.push({ ETag, PartNumber });
        pending = [];
        pendingBytes = 0;
      };
      return {
        async write(chunk) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= EXPORT_PART_BYTES) await upload();
        },
        async finish() {
          // The last part may be smaller than 5 MiB; an empty archive still has its one part.
          if (pendingBytes > 0 || parts.length === 0) await upload();
          await client.send(
            new CompleteMultipartUploadCommand({
              Bucket: bucket(),
              Key: objectKey,
              UploadId,
              MultipartUpload: { Parts: parts },
            }),
          );
        },
        async abort() {
          await client.send(new AbortMultipartUploadCommand({ Bucket: bucket(), Key: objectKey, UploadId }));
        },
      };
    },
    downloadUrl(objectKey, fileName, expiresInSeconds) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: bucket(),
          Key: objectKey,
          ResponseContentDisposition: `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
        }),
        { expiresIn: expiresInSeconds },
      );
    },
  };
}

/** The builder started by an asynchronous invocation: the request answers at once. */
export function createLambdaExportJobs(client: LambdaClient, functionName: () => string): ExportJobs {
  return {
    async start(exportId) {
      const { StatusCode } = await client.send(
        new InvokeCommand({
          FunctionName: functionName(),
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify({ exportId })),
        }),
      );
      if (StatusCode !== 202) throw new Error(`Lambda : constructeur des exports non lancé (${StatusCode})`);
    },
  };
}
