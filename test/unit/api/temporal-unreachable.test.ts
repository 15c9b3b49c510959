import { describe, expect, it } from 'vitest';
import { isTemporalUnreachable, isUnavailable } from '../../../src/api/errors.ts';

const grpc = (message: string, code: number) => Object.assign(new Error(message), { name: 'ServiceError', cause: Object.assign(new Error('inner'), { code }) });

describe('isTemporalUnreachable', () => {
  const unreachable: Error[] = [
    grpc('14 UNAVAILABLE: No connection established', 14),
    grpc('4 DEADLINE_EXCEEDED: Deadline exceeded', 4),
    new Error('wrapper', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
    Object.assign(new Error('lost'), { name: 'ConnectionError' }),
    Object.assign(new Error('lost'), { name: 'TransportError' }),
    new Error('Failed to connect before the deadline'),
  ];
  const refused: Error[] = [
    grpc('3 INVALID_ARGUMENT: bad search attribute', 3),
    grpc('6 ALREADY_EXISTS: workflow exists', 6),
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
  ];

  it('tells Temporal out of reach from Temporal refusing', () => {
    for (const err of unreachable) expect(isTemporalUnreachable(err), err.message).toBe(true);
    for (const err of refused) expect(isTemporalUnreachable(err), err.message).toBe(false);
  });

  it('is what the error handler answers 503 for on the Temporal side', () => {
    for (const err of unreachable) expect(isUnavailable(err), err.message).toBe(true);
    // A lost database is unavailable too, though not Temporal.
    expect(isUnavailable(refused[2])).toBe(true);
    expect(isUnavailable(refused[0])).toBe(false);
  });

  it('looks no deeper than five causes', () => {
    let err: Error = Object.assign(new Error('down'), { code: 14 });
    for (let i = 0; i < 5; i++) err = new Error('wrapper', { cause: err });
    expect(isTemporalUnreachable(err)).toBe(false);
  });
});
