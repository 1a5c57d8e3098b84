import { jsonToNativeScript, Serialization } from '@cardano-sdk/core';
import { HexBlob } from '@cardano-sdk/util';

/**
 * A UTxO's reference script in the seed's `script_ref`: the CBOR of the ledger's `script`
 * (`[language, script]`, as Mesh and the real service's SDKs write it), with its hash computed
 * here and checked against the hash the provider states. Providers differ in how many CBOR
 * layers they put around a Plutus script; the form whose hash matches is the right one.
 */

export type ScriptLanguage = 'native' | 'plutusV1' | 'plutusV2' | 'plutusV3';

export interface ScriptRef {
  scriptRef: string;
  scriptHash: string;
}

/** Koios' `timelock`/`multisig`, Blockfrost's `timelock`, `plutusV1`…: one language name. */
export const scriptLanguage = (type: string): ScriptLanguage | null => {
  const t = type.trim().toLowerCase();
  if (t === 'timelock' || t === 'multisig' || t === 'native') return 'native';
  if (t === 'plutusv1') return 'plutusV1';
  if (t === 'plutusv2') return 'plutusV2';
  if (t === 'plutusv3') return 'plutusV3';
  return null;
};

/** A CBOR byte string holding `hex`. */
const cborBytes = (hex: string): string => {
  const length = hex.length / 2;
  const head =
    length < 24
      ? (0x40 + length).toString(16)
      : length < 0x100
        ? `58${length.toString(16).padStart(2, '0')}`
        : length < 0x10000
          ? `59${length.toString(16).padStart(4, '0')}`
          : `5a${length.toString(16).padStart(8, '0')}`;
  return head + hex;
};

const plutusScript = (language: Exclude<ScriptLanguage, 'native'>, cbor: string) => {
  const hex = HexBlob(cbor);
  if (language === 'plutusV1') {
    return Serialization.Script.newPlutusV1Script(Serialization.PlutusV1Script.fromCbor(hex));
  }
  if (language === 'plutusV2') {
    return Serialization.Script.newPlutusV2Script(Serialization.PlutusV2Script.fromCbor(hex));
  }
  return Serialization.Script.newPlutusV3Script(Serialization.PlutusV3Script.fromCbor(hex));
};

const attempt = (make: () => Serialization.Script, statedHash: string): ScriptRef | null => {
  try {
    const script = make();
    const hash = script.hash();
    return hash === statedHash.toLowerCase()
      ? { scriptRef: script.toCbor(), scriptHash: hash }
      : null;
  } catch {
    return null;
  }
};

/**
 * From the script as a provider gives it: CBOR hex (a Plutus script, once or twice wrapped, or
 * a native script), or cardano-cli JSON for a native script. Null when nothing matches the hash.
 */
export const scriptRefOf = (
  language: ScriptLanguage,
  script: { cbor: string } | { json: unknown },
  statedHash: string,
): ScriptRef | null => {
  if ('json' in script) {
    if (language !== 'native') return null;
    return attempt(
      () =>
        Serialization.Script.newNativeScript(
          Serialization.NativeScript.fromCore(jsonToNativeScript(script.json)),
        ),
      statedHash,
    );
  }
  const cbor = script.cbor.toLowerCase();
  if (!/^(?:[0-9a-f]{2})+$/.test(cbor)) return null;
  if (language === 'native') {
    return attempt(
      () =>
        Serialization.Script.newNativeScript(Serialization.NativeScript.fromCbor(HexBlob(cbor))),
      statedHash,
    );
  }
  return (
    attempt(() => plutusScript(language, cbor), statedHash) ??
    attempt(() => plutusScript(language, cborBytes(cbor)), statedHash)
  );
};
