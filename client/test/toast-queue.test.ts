import { describe, expect, it } from 'vitest';
import { ToastQueue, toastLabel } from '../src/table-kit/toast-queue.ts';

describe('notices over the table (issue 41: repeated notices coalesce)', () => {
  it('three "시간 초과" in a row are one line with ×3, kept until the last one is due', () => {
    const q = new ToastQueue<string>(3);
    let made = 0;
    const make = () => `line${++made}`;
    q.push('민수 님 시간 초과', 0, 1800, make);
    q.push('민수 님 시간 초과', 500, 1800, make);
    const third = q.push('민수 님 시간 초과', 900, 1800, make);
    expect(made).toBe(1);
    expect(third.repeated).toBe(true);
    expect(toastLabel(third.toast.text, third.toast.count)).toBe('민수 님 시간 초과 ×3');
    expect(q.expire(1800)).toEqual([]);
    expect(q.expire(2700)).toEqual(['line1']);
    expect(q.shown).toEqual([]);
  });

  it('distinct notices stack up to the bound; the oldest goes first', () => {
    const q = new ToastQueue<string>(3);
    const dropped = ['a', 'b', 'c', 'd'].map((t, i) => q.push(t, i, 1000, () => t).dropped).flat();
    expect(dropped).toEqual(['a']);
    expect(q.shown.map((s) => s.text)).toEqual(['b', 'c', 'd']);
    expect(toastLabel('b', 1)).toBe('b');
  });

  it('a notice that came again after its line was gone starts a new line', () => {
    const q = new ToastQueue<number>(3);
    let n = 0;
    q.push('x', 0, 100, () => ++n);
    const again = q.push('x', 200, 100, () => ++n);
    expect(again.repeated).toBe(false);
    expect(again.dropped).toEqual([1]);
    expect(again.toast.count).toBe(1);
  });
});
