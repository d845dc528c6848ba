// @vitest-environment happy-dom
/**
 * The quiet-hours form and its schedule (a daily cron with its time zone) without a browser, and
 * the tokens' lifetime choices.
 */
import { cleanup, fireEvent, render } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { DAY_NS } from "../../src/users/settings/api.ts"
import { fromSchedule, timeZones, toSchedule } from "../../src/users/settings/quietHours.ts"
import { QuietHoursForm } from "../../src/users/settings/Schedule.tsx"
import { lifetimeChoices } from "../../src/users/settings/Tokens.tsx"
import { screen } from "./screen.ts"

afterEach(cleanup)

describe("toSchedule and fromSchedule", () => {
  it("writes a daily schedule in the time zone, minute then hour", () => {
    expect(toSchedule("02:30", "Europe/Berlin")).toEqual({ schedule: "CRON_TZ=Europe/Berlin 30 2 * * *" })
    expect(toSchedule("22:05", "UTC")).toEqual({ schedule: "CRON_TZ=UTC 5 22 * * *" })
    expect(toSchedule("0:00", "America/New_York")).toEqual({ schedule: "CRON_TZ=America/New_York 0 0 * * *" })
  })

  it("refuses a time that is not one, and a zone that is not one, in words", () => {
    expect(toSchedule("24:00", "UTC")).toEqual({ error: "The start time must be a time of day, such as 22:00." })
    expect(toSchedule("", "UTC")).toHaveProperty("error")
    expect(toSchedule("7:5", "UTC")).toHaveProperty("error")
    expect(toSchedule("07:00", "Mars/Olympus")).toEqual({ error: "Mars/Olympus is not a time zone." })
    expect(toSchedule("07:00", "")).toEqual({ error: "The time zone is not a time zone." })
  })

  it("reads back what it writes, and takes UTC without a zone", () => {
    for (const [time, zone] of [["02:30", "Europe/Berlin"], ["23:59", "Asia/Kolkata"], ["00:00", "UTC"]] as const) {
      const r = toSchedule(time, zone)
      expect("schedule" in r && fromSchedule(r.schedule)).toEqual({ time, timezone: zone })
    }
    expect(fromSchedule("15 22 * * *")).toEqual({ time: "22:15", timezone: "UTC" })
    expect(fromSchedule("*/5 * * * *")).toBeUndefined()
    expect(fromSchedule("0 0 1 * *")).toBeUndefined()
    expect(fromSchedule("60 1 * * *")).toBeUndefined()
  })

  it("offers UTC and the current zone among the zones", () => {
    const zones = timeZones("Europe/Berlin")
    expect(zones).toContain("UTC")
    expect(zones).toContain("Europe/Berlin")
    expect([...zones].sort()).toEqual(zones)
  })
})

describe("QuietHoursForm", () => {
  it("saves the schedule of the time and zone chosen", () => {
    const onSave = vi.fn()
    render(<QuietHoursForm time="00:00" timezone="UTC" onSave={onSave} />)
    fireEvent.change(screen.getByLabelText("Start time"), { target: { value: "02:30" } })
    fireEvent.change(screen.getByRole("combobox", { name: "Time zone" }), { target: { value: "Europe/Berlin" } })
    fireEvent.click(screen.getByRole("button", { name: "Save quiet hours" }))
    expect(onSave).toHaveBeenCalledWith("CRON_TZ=Europe/Berlin 30 2 * * *")
    expect(screen.queryByRole("alert")).toBeNull()
  })

  it("starts from the saved values", () => {
    render(<QuietHoursForm time="22:15" timezone="Asia/Tokyo" onSave={() => {}} />)
    expect((screen.getByLabelText("Start time") as HTMLInputElement).value).toBe("22:15")
    expect((screen.getByRole("combobox", { name: "Time zone" }) as HTMLSelectElement).value).toBe("Asia/Tokyo")
  })

  it("announces a bad time instead of saving it", () => {
    const onSave = vi.fn()
    render(<QuietHoursForm time="00:00" timezone="UTC" onSave={onSave} />)
    const time = screen.getByLabelText("Start time") as HTMLInputElement
    // happy-dom keeps what a time input is given; a browser would empty it (and `required` stop it).
    fireEvent.change(time, { target: { value: "25:00" } })
    fireEvent.submit(time.form!)
    expect(onSave).not.toHaveBeenCalled()
    expect(screen.getByRole("alert").textContent).toBe("The start time must be a time of day, such as 22:00.")
  })

  it("is disabled when the deployment does not let users set their own", () => {
    render(<QuietHoursForm time="00:00" timezone="UTC" disabled onSave={() => {}} />)
    expect((screen.getByRole("group", { name: "Quiet hours start" }) as HTMLFieldSetElement).disabled).toBe(true)
  })
})

describe("lifetimeChoices", () => {
  it("offers the usual lifetimes up to the maximum, and the maximum itself", () => {
    expect(lifetimeChoices(30 * DAY_NS)).toEqual([7, 30])
    expect(lifetimeChoices(364 * DAY_NS)).toEqual([7, 30, 60, 90, 180, 364])
    expect(lifetimeChoices(365 * DAY_NS)).toEqual([7, 30, 60, 90, 180, 365])
    expect(lifetimeChoices(3 * DAY_NS)).toEqual([3])
    expect(lifetimeChoices(undefined)).toEqual([7, 30])
  })
})
