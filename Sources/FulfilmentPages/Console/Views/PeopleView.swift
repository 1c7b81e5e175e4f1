import Foundation
import FulfilmentDomain

/// The People page (issue 46): who works at the store, whether they can sign in, and what a
/// manager may do about each; then the form that adds someone.
enum PeopleView {
    static func page(session: ConsoleSession, csrf: HTML, notice: Notice?, people: [User], me: UserID) -> ConsolePage {
        let rows = people.map { person -> HTML in
            let state: HTML =
                person.disabledAt.map { "<span class=\"status status-cancelled\">Disabled</span> since \(TimeText.format($0))" }
                ?? "<span class=\"status status-completed\">Can sign in</span>"
            let actions: HTML
            if person.id == me {
                actions = "<span class=\"hint\">You</span>"
            } else {
                let toggle: HTML =
                    person.disabledAt == nil
                    ? """
                    <form method="post" action="/console/people/\(person.id)/disable" class="inline-form">\(csrf)
                    <button type="submit" class="secondary" id="disable-\(person.id)">Disable</button></form>
                    """
                    : """
                    <form method="post" action="/console/people/\(person.id)/enable" class="inline-form">\(csrf)
                    <button type="submit" class="secondary" id="enable-\(person.id)">Enable</button></form>
                    """
                actions = """
                    \(toggle)
                    <form method="post" action="/console/people/\(person.id)/erase" class="inline-form erase-form">\(csrf)
                    <label><input type="checkbox" name="confirm" value="yes" id="confirm-erase-\(person.id)"> They have left: erase for good</label>
                    <button type="submit" class="danger" id="erase-\(person.id)">Erase</button></form>
                    """
            }
            return """
                <tr id="person-\(person.id)">
                <td data-label="Name">\(person.name)</td>
                <td data-label="Email" class="address">\(person.email)</td>
                <td data-label="Role">\(person.role == .manager ? "Manager" : "Staff")</td>
                <td data-label="Status">\(state)</td>
                <td data-label="Actions" class="board-actions">\(actions)</td>
                </tr>
                """
        }
        return ConsolePage(
            title: "People", session: session,
            body: """
                <h1>People</h1>
                \(notice.map { $0.render(id: "people-note") } ?? .empty)
                <table class="cards" id="people">
                <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
                <tbody>\(HTML.join(rows))</tbody></table>
                <h2>Add someone to this store</h2>
                <form method="post" action="/console/people" class="fields roomy" id="add-person">\(csrf)
                <p class="field"><label for="person-name">Name</label><input id="person-name" name="name" required maxlength="100" autocomplete="off"></p>
                <p class="field wide"><label for="person-email">Email</label><input id="person-email" name="email" type="email" required maxlength="254" autocomplete="off"></p>
                <p class="field"><label for="person-password">Password (empty: invite them by email to choose their own)</label><input id="person-password" name="password" type="password" minlength="12" maxlength="128" autocomplete="new-password"></p>
                <p class="field short"><label for="person-role">Role</label><select id="person-role" name="role"><option value="staff">Staff</option><option value="manager">Manager</option></select></p>
                <p><button type="submit" id="add-person-button">Add</button></p>
                </form>
                """)
    }
}
