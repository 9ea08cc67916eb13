export * from './types.ts';
export { InProcessBus, type InProcessBusOptions } from './in-process.ts';
export { NatsBus, type NatsBusOptions } from './nats.ts';
export { DEAD_HEADERS, deadLetterStream, streamName } from './nats-durable.ts';
export {
  DEFAULT_DELIVERY_POLICY,
  deadLetterSubject,
  isPermanent,
  type DeliveryPolicy,
  type DurableConsumerOptions,
  type ParkedEvent,
} from './durable-policy.ts';
export { SubjectFamily } from './family.ts';
export { SlotSet } from './slots.ts';
export { createBus, type BusTarget } from './factory.ts';
export { RetryBudget, backoffMs, pastDeadline, type RetryBudgetOptions } from './retry-budget.ts';
