import { describe, expect, it } from 'vitest';
import { HANDSHAKE_NONCE_BYTES, MESSAGE_IV_BYTES } from '../../contract/trust-agent/constants.ts';
import {
  deriveSessionKeys,
  encodeParts,
  exportPublicKey,
  fromBase64Url,
  generateEphemeralKeys,
  generateIdentityKeys,
  type HandshakeTranscript,
  MessageRejectedError,
  newNonce,
  openMessage,
  pairingCode,
  sealMessage,
  signTranscript,
  verifyTranscript,
} from '../../contract/trust-agent/session-crypto.ts';

async function handshake() {
  const client = await generateEphemeralKeys();
  const agent = await generateEphemeralKeys();
  const transcript: HandshakeTranscript = {
    origin: 'https://console.example',
    sessionId: 'AAAAAAAAAAAAAAAAAAAAAA',
    clientKey: 'client-identity',
    clientEphemeralKey: await exportPublicKey(client.publicKey),
    clientNonce: newNonce(),
    agentKey: 'agent-identity',
    agentEphemeralKey: await exportPublicKey(agent.publicKey),
    agentNonce: newNonce(),
  };
  const clientKeys = await deriveSessionKeys(client.privateKey, transcript.agentEphemeralKey, transcript);
  const agentKeys = await deriveSessionKeys(agent.privateKey, transcript.clientEphemeralKey, transcript);
  return { transcript, clientKeys, agentKeys };
}

const binding = {
  sessionId: 'AAAAAAAAAAAAAAAAAAAAAA',
  direction: 'client-to-agent' as const,
  seq: 1,
  command: 'token',
};

describe('trust-agent session crypto', () => {
  it('encodes parts so that different lists never encode alike', () => {
    expect(encodeParts(['ab', 'c'])).not.toEqual(encodeParts(['a', 'bc']));
    expect(encodeParts(['', 'x'])).not.toEqual(encodeParts(['x', '']));
  });

  it('makes 64-byte nonces and 16-byte IVs', async () => {
    expect(fromBase64Url(newNonce())).toHaveLength(HANDSHAKE_NONCE_BYTES);
    const { clientKeys } = await handshake();
    const sealed = await sealMessage(clientKeys.clientToAgent, binding, { a: 1 });
    expect(fromBase64Url(sealed.iv)).toHaveLength(MESSAGE_IV_BYTES);
  });

  it('derives the same keys on both sides, one per direction', async () => {
    const { clientKeys, agentKeys } = await handshake();
    const sealed = await sealMessage(clientKeys.clientToAgent, binding, { keystoreId: 'software' });
    await expect(openMessage(agentKeys.clientToAgent, binding, sealed)).resolves.toEqual({
      keystoreId: 'software',
    });
    // The other direction's key does not open it: an answer cannot be reflected as a request.
    await expect(openMessage(agentKeys.agentToClient, binding, sealed)).rejects.toBeInstanceOf(
      MessageRejectedError,
    );
  });

  it('refuses a message moved to another sequence number, command, direction or session', async () => {
    const { clientKeys, agentKeys } = await handshake();
    const sealed = await sealMessage(clientKeys.clientToAgent, binding, {});
    const moved = [
      { ...binding, seq: 2 },
      { ...binding, command: 'generate' },
      { ...binding, direction: 'agent-to-client' as const },
      { ...binding, sessionId: 'BBBBBBBBBBBBBBBBBBBBBB' },
    ];
    for (const other of moved) {
      await expect(
        openMessage(agentKeys.clientToAgent, other, { ...sealed, seq: other.seq, command: other.command }),
      ).rejects.toBeInstanceOf(MessageRejectedError);
    }
  });

  it('refuses a flipped bit and a truncated ciphertext', async () => {
    const { clientKeys, agentKeys } = await handshake();
    const sealed = await sealMessage(clientKeys.clientToAgent, binding, { pin: '123456' });
    const bytes = fromBase64Url(sealed.ciphertext);
    bytes.set([(bytes.at(0) ?? 0) ^ 1], 0);
    const flipped = { ...sealed, ciphertext: Buffer.from(bytes).toString('base64url') };
    await expect(openMessage(agentKeys.clientToAgent, binding, flipped)).rejects.toBeInstanceOf(
      MessageRejectedError,
    );
    const truncated = { ...sealed, ciphertext: sealed.ciphertext.slice(0, -4) };
    await expect(openMessage(agentKeys.clientToAgent, binding, truncated)).rejects.toBeInstanceOf(
      MessageRejectedError,
    );
  });

  it('signs the transcript per role: the agent signature does not pass as the client one', async () => {
    const identity = await generateIdentityKeys();
    const { transcript } = await handshake();
    const signature = await signTranscript(identity.privateKey, 'agent', transcript);
    expect(await verifyTranscript(identity.publicKey, 'agent', transcript, signature)).toBe(true);
    expect(await verifyTranscript(identity.publicKey, 'client', transcript, signature)).toBe(false);
    expect(
      await verifyTranscript(
        identity.publicKey,
        'agent',
        { ...transcript, origin: 'https://evil.example' },
        signature,
      ),
    ).toBe(false);
  });

  it('shows a six-digit pairing code that changes with either key', async () => {
    const transcript = {
      origin: 'https://console.example',
      clientKey: 'client',
      clientNonce: newNonce(),
      agentKey: 'agent',
      agentNonce: newNonce(),
    };
    const code = await pairingCode(transcript);
    expect(code).toMatch(/^\d{3} \d{3}$/);
    expect(await pairingCode(transcript)).toBe(code);
    const codes = new Set<string>();
    for (let i = 0; i < 5; i += 1) codes.add(await pairingCode({ ...transcript, agentKey: `impostor-${i}` }));
    expect(codes.size).toBeGreaterThan(1);
  });
});
