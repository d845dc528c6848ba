/**
 * Audit declarations of endpoints. Every state-changing endpoint (any method but
 * GET) declares the resource kind it changes (`.annotate(Audited, audit(kind))`),
 * or that it changes nothing (`.annotate(Audited, false)`); the dispatcher refuses to start when
 * one declares neither, so no later resource can skip the audit log.
 */
import type { AuditAction } from "@workbay/core"
import { Context } from "effect"

export interface AuditDeclaration {
  /** The resource kind the entry names (until the service names the resource itself). */
  readonly resourceType: string
  /** Default: create for POST, write for PUT/PATCH, delete for DELETE. */
  readonly action?: AuditAction | undefined
  /** Store the entry even when no user is known (login, one-time passcodes, first user). */
  readonly anonymous?: boolean | undefined
}

export class Audited extends Context.Tag("@workbay/http/Audited")<Audited, AuditDeclaration | false>() {}

/**
 * What an endpoint's entries name: `.annotate(Audited, audit("user"))`; `.annotate(Audited, false)`
 * declares a non-GET endpoint that changes nothing (a check, a report).
 */
export const audit = (
  resourceType: string,
  options: Omit<AuditDeclaration, "resourceType"> = {}
): AuditDeclaration => ({ resourceType, ...options })

/** The action a method implies. */
export const defaultAction = (method: string): AuditAction =>
  method === "POST" ? "create" : method === "DELETE" ? "delete" : "write"
