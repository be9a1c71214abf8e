import { hash, verify } from '@node-rs/argon2';

/**
 * Reviewer passwords: argon2id (the library's default algorithm, memory-hard) with OWASP's minimum parameters —
 * 19 MiB of memory, 2 passes, 1 lane — about 25 ms per hash on one core here. Only the PHC string is stored.
 */
const PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Shortest password `review user add` accepts. */
export const MIN_PASSWORD_LENGTH = 10;

export async function hashPassword(password: string): Promise<string> {
  if (password.length < MIN_PASSWORD_LENGTH) throw new Error(`password: at least ${MIN_PASSWORD_LENGTH} characters`);
  const phc = await hash(password, PARAMS);
  // The library's default is argon2id; the database refuses anything else, so fail here with a clear message.
  if (!phc.startsWith('$argon2id$')) throw new Error('password hash: expected an argon2id PHC string');
  return phc;
}

// A valid hash of a random string: unknown users cost the same verification time as known ones (no user probing).
let dummy: Promise<string> | undefined;

/** True iff `password` matches `phc`; with `phc` undefined (no such user) it still spends one verification. */
export async function verifyPassword(phc: string | undefined, password: string): Promise<boolean> {
  if (phc === undefined) {
    dummy ??= hash(`no-such-user-${Math.random()}`, PARAMS);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(phc, password).catch(() => false);
}
