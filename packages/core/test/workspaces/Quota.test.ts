/**
 * The quota rule of a start build: quotas apply in an organization once any group of it has an
 * allowance above 0; then a build is refused past the owner's budget there.
 */
import { describe, expect, it } from "vitest"
import { exceedsQuota } from "../../src/workspaces/Quotas.js"

describe("exceedsQuota", () => {
  it("refuses nothing while no group of the organization has an allowance", () => {
    expect(exceedsQuota({ cost: 1, consumed: 0, budget: 0, quotasOn: false })).toBe(false)
    expect(exceedsQuota({ cost: 5, consumed: 1_000, budget: 0, quotasOn: false })).toBe(false)
  })

  it("once quotas are on, refuses a build past the budget, a budget of 0 included", () => {
    expect(exceedsQuota({ cost: 1, consumed: 0, budget: 0, quotasOn: true })).toBe(true)
    expect(exceedsQuota({ cost: 3, consumed: 8, budget: 10, quotasOn: true })).toBe(true)
  })

  it("lets a build reach the budget exactly", () => {
    expect(exceedsQuota({ cost: 3, consumed: 7, budget: 10, quotasOn: true })).toBe(false)
    expect(exceedsQuota({ cost: 10, consumed: 0, budget: 10, quotasOn: true })).toBe(false)
  })

  it("never refuses a build that costs nothing, even past the budget", () => {
    expect(exceedsQuota({ cost: 0, consumed: 12, budget: 10, quotasOn: true })).toBe(false)
    expect(exceedsQuota({ cost: 0, consumed: 0, budget: 0, quotasOn: true })).toBe(false)
  })
})
