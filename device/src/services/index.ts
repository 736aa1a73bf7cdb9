/**
 * The services a host can `OPEN` on the simulated device, tried in order.
 * Each module owns the services of one kind (adbd: `daemon/services.cpp` `daemon_service_to_fd`).
 */
import type {ServiceHandler} from '../types.ts';
import {shellServices} from './shell.ts';
import {syncService, framebufferService} from './files.ts';
import {systemServices} from './system.ts';

/** A fresh list of every service the device serves. */
export function defaultServices(): ServiceHandler[] {
  return [...shellServices, syncService, framebufferService, ...systemServices];
}
