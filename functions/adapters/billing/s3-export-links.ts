import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import type { ExportFiles } from '../../domain/billing/data-export';

/**
 * The requests' side of the exports bucket in AWS: an archive offered by a pre-signed GET URL that
 * downloads it under its file name (only the requests sign, so only their bundle has the presigner).
 */
export function createS3ExportLinks(
  client: S3Client,
  bucket: () => string,
): Pick<ExportFiles, 'downloadUrl'> {
  return {
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
