// WebCrypto's SubtleCrypto: globalThis.crypto in browsers and Node 20; Node 18 (Debian 12's
// nodejs package) has it as node:crypto's webcrypto, which a browser never needs to load.
export const subtle = (globalThis.crypto ?? (await import("node:crypto")).webcrypto).subtle;
