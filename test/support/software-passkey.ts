import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';

import { isoCBOR } from '@simplewebauthn/server/helpers';

/** A relying party as the browser reports it: its id and the page's origin. */
export interface PasskeyOrigin {
  readonly rpId: string;
  readonly origin: string;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * A software passkey (an ES256 platform authenticator with "none" attestation), for the API tests
 * that cannot drive a browser: it answers WebAuthn options the way `navigator.credentials` would,
 * in the JSON form @simplewebauthn/browser sends. The browser suite uses Chromium's own virtual
 * authenticator instead.
 */
export class SoftwarePasskey {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;

  constructor(private readonly where: PasskeyOrigin) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicJwk = { x: jwk.x as string, y: jwk.y as string };
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The answer to registration options (`navigator.credentials.create`). */
  register(options: { challenge: string }, origin = this.where.origin) {
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, origin);
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(this.publicJwk.x, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(this.publicJwk.y, 'base64url'))],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.authenticatorData(0x45), // user present, user verified, attested credential data
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to authentication options (`navigator.credentials.get`). */
  authenticate(options: { challenge: string }, origin = this.where.origin) {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const authData = this.authenticatorData(0x05);
    const signer = createSign('sha256');
    signer.update(Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]));
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signer.sign(this.privateKey)),
      },
      clientExtensionResults: {},
    };
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  private authenticatorData(flags: number): Buffer {
    this.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([
      createHash('sha256').update(this.where.rpId).digest(),
      Buffer.from([flags]),
      counter,
    ]);
  }
}
