import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

import type { ExportFiles, ExportFileWriter } from '../../domain/billing/data-export';

/** The size of each uploaded part: above S3's 5 MiB minimum, so memory holds one part at a time. */
export const EXPORT_PART_BYTES = 8 * 1024 * 1024;

/**
 * The builder's side of the exports bucket in AWS: each archive streamed as a multipart upload (one
 * 8 MiB part buffered at a time, whatever its size). The bucket's lifecycle rule deletes the objects
 * and the unfinished uploads after a day.
 */
export function createS3ExportWriter(client: S3Client, bucket: () => string): Pick<ExportFiles, 'open'> {
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
  };
}
