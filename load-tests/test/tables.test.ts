import { describe, expect, it } from 'vitest';
import { RunStats } from '../src/stats.ts';
import { createTableBook } from '../src/tables.ts';

describe('the table book (tables.ts)', () => {
  it('counts two different actions acknowledged at one seq of a table as a conflict, and forgets a finished table’s acks', () => {
    const stats = new RunStats(1000, Date.now(), 0, 1);
    const book = createTableBook(stats, false);
    book.sink.matched('room-a', 'u1');
    book.sink.acked('room-a', 'u1', 'u1.1', { type: 'draw' }, 1);
    book.sink.acked('room-a', 'u1', 'u1.1', { type: 'draw' }, 1); // the same action again: a resend, no conflict
    book.sink.acked('room-a', 'u2', 'u2.1', { type: 'draw' }, 2);
    expect(stats.total.errors).toEqual({});
    book.sink.acked('room-a', 'u2', 'u2.7', { type: 'pass' }, 2);
    expect(stats.total.errors).toEqual({ ackConflict: 1 });
    expect(book.tables.get('room-a')!.acks.size).toBe(2);
    book.sink.finished('room-a');
    expect(book.tables.get('room-a')!.acks.size).toBe(0);
    expect(stats.total.actions).toBe(4);
  });
});
