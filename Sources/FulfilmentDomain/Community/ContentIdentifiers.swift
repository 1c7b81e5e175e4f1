public enum NewsTag {}
public enum RecipeTag {}
public enum CommentTag {}
public enum ReviewTag {}
public enum ReportTag {}
package typealias NewsID = ID<NewsTag>
package typealias RecipeID = ID<RecipeTag>
package typealias CommentID = ID<CommentTag>
package typealias ReviewID = ID<ReviewTag>
package typealias ReportID = ID<ReportTag>
