import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

// A passkey authenticator in software (one ES256 key), for tests that talk to the back office's
// passkey endpoints without a browser: it answers registration and authentication options as a
// platform authenticator with user verification would, and can also sign what a real one never
// would (another ceremony's challenge, a challenge it was not allowed to answer).

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

export type SoftwareAuthenticator = {
  /** The credential id, base64url (what the server stores as the passkey's id). */
  credentialId: string;
  /** The COSE public key, base64url (what the server stores). */
  publicKey: string;
  /** An answer to `navigator.credentials.create()` for these options' challenge. */
  register: (options: { challenge: string }) => unknown;
  /** An answer to `navigator.credentials.get()` for this challenge (allowCredentials is not consulted). */
  authenticate: (options: { challenge: string }) => unknown;
};

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest();
const utf8 = (text: string) => Buffer.from(text, "utf8");
const concat = (parts: Uint8Array[]) => Buffer.concat(parts);
const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  );
}

function counterBytes(counter: number): Uint8Array {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/** An authenticator holding one new passkey for relying party `rpId`, answering for `origin`. */
export function softwareAuthenticator(rp: { id: string; origin: string }): SoftwareAuthenticator {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const credential = randomBytes(32);
  const credentialId = base64url(credential);
  const cose = coseKey(publicKey);
  const rpIdHash = sha256(utf8(rp.id));
  let counter = 0;

  const clientData = (type: string, challenge: string) =>
    utf8(JSON.stringify({ type, challenge, origin: rp.origin, crossOrigin: false }));

  return {
    credentialId,
    publicKey: base64url(cose),
    register({ challenge }) {
      const idLength = new Uint8Array([credential.length >> 8, credential.length & 0xff]);
      const authData = concat([
        rpIdHash,
        new Uint8Array([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL]),
        counterBytes(counter),
        new Uint8Array(16), // AAGUID: none
        idLength,
        credential,
        cose,
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ["fmt", "none"],
          ["attStmt", new Map<string, string>()],
          ["authData", authData],
        ]),
      );
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: base64url(clientData("webauthn.create", challenge)),
          attestationObject: base64url(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
    authenticate({ challenge }) {
      counter += 1;
      const authData = concat([
        rpIdHash,
        new Uint8Array([FLAG_USER_PRESENT | FLAG_USER_VERIFIED]),
        counterBytes(counter),
      ]);
      const clientDataJSON = clientData("webauthn.get", challenge);
      const signature = sign("sha256", concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: base64url(clientDataJSON),
          authenticatorData: base64url(authData),
          signature: base64url(signature),
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
  };
}
