/**
 * node-redis 6.3 keeps the commands that wait for their replies in a singly linked list
 * (`SinglyLinkedList` in `@redis/client/dist/lib/client/linked-list.js`), and its `shift()` — one per
 * reply — leaves the shifted node's `next` pointing at the node behind it. A node that waited across two
 * scavenges (a reply slow under load) reaches the old generation; once shifted it is garbage, but the
 * scavenger reads old-to-young pointers as roots until a mark-compact frees it, so from it every later
 * command's node, its promise and what that promise resolves into (a room's pending replies and frames)
 * survive their scavenges and are promoted too — and the nodes in the list at the next mark-compact are
 * old themselves, so the chain never ends. A room worker promoted its snapshot writes' whole graphs that
 * way. Unlinking the shifted node (as the library's doubly linked list already does) ends it.
 *
 * Applied once, when this module loads (patches/index.ts imports it, and redis-conn.ts that); `redisReplyQueueUnlinks()` lets a test
 * see that it took on the installed version.
 */
import { SinglyLinkedList, type SinglyLinkedNode } from '@redis/client/dist/lib/client/linked-list.js';

type Node = SinglyLinkedNode<unknown>;
/** The marker says the patch is on (a second copy of this module must not wrap shift twice). */
const proto: SinglyLinkedList<unknown> & { __jokeUnlinks?: true } = SinglyLinkedList.prototype;

if (!proto.__jokeUnlinks) {
  const shift = proto.shift;
  proto.shift = function (this: SinglyLinkedList<unknown>) {
    const node = this.head;
    const value = shift.call(this);
    if (node !== undefined) {
      node.next = undefined;
      node.value = undefined;
    }
    return value;
  };
  proto.__jokeUnlinks = true;
}

/** Whether a shifted node of the installed client's reply queue lets go of the nodes behind it. */
export function redisReplyQueueUnlinks(): boolean {
  const list = new SinglyLinkedList<number>();
  list.push(1);
  list.push(2);
  // The node as the list hands it out: after the shift its fields are what the patch left there.
  const first: { value: number | undefined; next: Node | undefined } | undefined = list.head;
  return (
    first !== undefined &&
    list.shift() === 1 &&
    first.next === undefined &&
    first.value === undefined &&
    list.shift() === 2
  );
}
